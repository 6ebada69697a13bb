import Foundation
import JackwaveTestSupport

/// A JACK peer (python3-jack-client) that plays a schedule of MIDI events and marks each
/// event's frame in audio, so that a recording of both says where every event fell.
///
/// Its ports: MIDI outputs `notes` and `control`, audio outputs `click` and `frames`.
/// - `frames` plays the peer's own frame counter: sample k is `Float(k mod 2^23) / 2^23`, k
///   counting the frames the peer has processed since its first cycle (exact in float32:
///   a float recording of it tells each recorded sample's peer frame, `peerFrame(ofSample:)`).
/// - The schedule starts at the first cycle after the go file exists (`go()`): the peer's
///   main thread looks for it every 10 ms and raises a flag its process callback reads; the
///   schedule's offset 0 is that cycle's first frame. Each event is written at its exact
///   frame (`write_midi_event(offset in the block, bytes)`), several in one period if due.
/// - `click` is 0 except one sample of 0.5 at the frame of each event sent on `notes`
///   (none for `control`, nor for an event marked `click: false`): in a recording of
///   `click`, the click's index is its event's frame.
/// - A `Burst` is a generated stream of events on `notes` beside the schedule (10,000 a
///   second for a minute is too much for a schedule file and a line each): each clicked, and
///   only their number and the peer frame of the first printed, `burst N F`, before `done`.
/// - Its stdout: `ready` once active, one JSON line per event sent,
///   `{"frame": k, "port": "notes", "hex": "903c64"}` (k the peer frame; hex, which Python
///   makes without holding its lock for long: a list of 30,000 numbers held it for about 10 ms,
///   and the process callback, waiting for it, was late), then `done`
///   once the whole schedule is sent, after every event's line. It stays active (ports and
///   connections kept) until `stop()`. An event JACK refused (its buffer full) is not sent:
///   it gets no line and no click, and a `failed …` line on stderr, which `sent()` throws.
struct MidiPeer {
    enum Port: String, CaseIterable, Sendable {
        case notes, control
    }

    /// One event of a schedule: `bytes` on `port`, `at` frames after the schedule's start;
    /// clicked (on `notes`) unless `click` is false.
    struct Event: Equatable, Sendable {
        var at: Int
        var port: Port
        var bytes: [UInt8]
        var click = true
    }

    /// `count` events on `notes` from `at`, event i at `at + i × every.num / every.den`
    /// (integer division; 48000/10000 is 24/5), each `bytes(i)`: note-ons and note-offs in
    /// turn, or SysEx messages of `size` bytes (`MidiPeer.sysEx`, tagged i).
    struct Burst: Sendable {
        enum Kind: String, Sendable { case notes, sysex }
        var at = 0
        var count: Int
        var every: (num: Int, den: Int)
        var kind = Kind.notes
        var size = 0

        func frame(_ i: Int) -> Int { at + i * every.num / every.den }

        func bytes(_ i: Int) -> [UInt8] {
            switch kind {
            case .notes:
                let k = i / 2, key = UInt8(36 + k % 60)
                return i % 2 == 0 ? [0x90, key, UInt8(1 + k % 126)] : [0x80, key, 64]
            case .sysex:
                return MidiPeer.sysEx(length: size, tag: i)
            }
        }

        var json: [String: Any] {
            ["at": at, "count": count, "num": every.num, "den": every.den, "kind": kind.rawValue, "size": size]
        }
    }

    /// An event as the peer sent it: `frame` is the peer's frame counter (what `frames` plays).
    typealias Sent = (frame: Int, port: Port, bytes: [UInt8])

    let process: Run.Running
    /// The JACK client name (its ports are `name:notes`, `name:control`, `name:click`, `name:frames`).
    let name: String
    let schedule: [Event]
    /// The file `go()` creates (`DIR/NAME.go`, removed by `start` if left from before).
    let goFile: String

    /// `frames` plays frame k as `k mod frameModulus` over `frameModulus`.
    static let frameModulus = 1 << 23

    /// Writes the schedule to `dir/NAME.schedule.json`, starts the peer as JACK client `name`
    /// on `server` (a `Run` server name) and waits (30 s at most) until it is active.
    /// Events may be given in any order: the peer sends them by `at` (a stable sort, so
    /// events on one frame go out in the order given). Throws for a negative `at`, an empty
    /// event, or a peer that did not become ready.
    static func start(server: String, name: String = "midipeer", schedule: [Event], burst: Burst? = nil, in dir: String) throws -> MidiPeer {
        if let bad = schedule.first(where: { $0.at < 0 || $0.bytes.isEmpty }) {
            throw TestFailure("MidiPeer: event out of reach (negative frame or no bytes): \(bad)")
        }
        let schedulePath = dir + "/\(name).schedule.json"
        let goFile = dir + "/\(name).go"
        try? FileManager.default.removeItem(atPath: goFile)
        let json = schedule.map { ["at": $0.at, "port": $0.port.rawValue, "bytes": $0.bytes.map(Int.init), "click": $0.click] as [String: Any] }
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: schedulePath))
        let burstJSON = try burst.map { String(decoding: try JSONSerialization.data(withJSONObject: $0.json), as: UTF8.self) } ?? "null"
        let process = try Run.start("/usr/bin/python3", ["-c", script, name, schedulePath, goFile, burstJSON], server: server)
        let ready = waitUntil(timeout: 30) { lines(process.stdoutSoFar).contains("ready") || !process.isRunning }
        guard ready, process.isRunning else {
            process.signal(SIGKILL)
            let out = process.finish(timeout: 5)
            throw TestFailure("MidiPeer \(name) did not become ready: \(out.stdout)\(out.stderr)")
        }
        return MidiPeer(process: process, name: name, schedule: schedule, goFile: goFile)
    }

    /// Creates the go file: the schedule starts at the peer's first cycle after it sees it
    /// (within about 10 ms). False if the file could not be created.
    @discardableResult
    func go() -> Bool {
        FileManager.default.createFile(atPath: goFile, contents: Data())
    }

    /// Waits until the peer said `done` (true), or it ended or `timeout` s passed (false).
    func waitUntilDone(timeout: Double = 30) -> Bool {
        waitUntil(timeout: timeout) { said("done") || !process.isRunning } && said("done")
    }

    /// Whether the peer printed `line` as a whole line.
    func said(_ line: String) -> Bool { Self.lines(process.stdoutSoFar).contains(line) }

    /// The events sent so far, in the order sent (by frame), from the peer's stdout. Throws
    /// for a line it cannot read, or if the peer reported an event JACK refused.
    func sent() throws -> [Sent] {
        let failures = Self.lines(process.stderrSoFar).filter { $0.hasPrefix("failed") }
        if !failures.isEmpty { throw TestFailure("MidiPeer \(name): \(failures.joined(separator: "; "))") }
        return try Self.lines(process.stdoutSoFar).filter { $0 != "ready" && $0 != "done" && !$0.hasPrefix("burst ") }.map(Self.parse)
    }

    /// How many of the burst's events were sent, and the peer frame its first was due at
    /// (its `burst N F` line); nil before it is done.
    func burstSent() -> (count: Int, firstFrame: Int)? {
        guard let line = Self.lines(process.stdoutSoFar).first(where: { $0.hasPrefix("burst ") }) else { return nil }
        let numbers = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    /// Stops the peer (SIGTERM: it deactivates and closes its client; SIGKILL after 5 s)
    /// and returns all it printed.
    @discardableResult
    func stop() -> Run.Output {
        process.signal(SIGTERM)
        return process.finish(timeout: 5)
    }

    /// The peer frame a sample of `frames` stands for (modulo 2^23), or nil for a value
    /// it never plays (outside [0, 1) or not a multiple of 2^-23).
    static func peerFrame(ofSample sample: Float) -> Int? {
        let scaled = Double(sample) * Double(frameModulus)
        guard scaled >= 0, scaled < Double(frameModulus), scaled == scaled.rounded() else { return nil }
        return Int(scaled)
    }

    /// Whole lines of `text` (a last line without its newline is still being written: left out).
    static func lines(_ text: String) -> [String] {
        // What follows the last newline ("" when the text ends with one) is dropped.
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init).filter { !$0.isEmpty }
    }

    /// One event line of the peer's stdout.
    static func parse(_ line: String) throws -> Sent {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let frame = object["frame"] as? Int,
              let port = (object["port"] as? String).flatMap(Port.init(rawValue:)),
              let hex = (object["hex"] as? String).map({ Array($0.utf8) }), hex.count % 2 == 0 else {
            throw TestFailure("MidiPeer: not an event line: \(line)")
        }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: hex.count, by: 2) {
            guard let high = nibble(hex[i]), let low = nibble(hex[i + 1]) else { throw TestFailure("MidiPeer: not an event line: \(line)") }
            bytes.append(high << 4 | low)
        }
        return (frame, port, bytes)
    }

    /// A SysEx message of `length` bytes in all (at least 4): F0, the non-commercial ID 7D,
    /// `tag` (its low 7 bits, to tell messages apart), a pattern of data bytes that depends
    /// on `length` and `tag` (each < 0x80), F7.
    static func sysEx(length: Int, tag: Int = 0) -> [UInt8] {
        let data = (0..<max(length - 4, 0)).map { UInt8(truncatingIfNeeded: ($0 * 37 + length / 2 + tag + 1) & 0x7f) }
        return [0xf0, 0x7d, UInt8(truncatingIfNeeded: tag & 0x7f)] + data + [0xf7]
    }

    /// The span of one repetition of `varietySchedule`: six periods of 256 frames.
    static let varietySpan = 1536

    /// A ready-made schedule on `port` (MIDI channel `channel`, 0–15), 25 events over six
    /// 256-frame periods, repeated `repeats` times `varietySpan` frames apart, all offset by
    /// `first`: notes on and off (one as a note-on of velocity 0), CCs (7, 64 sustain on and
    /// off, 1, 123), pitch bend, program change, channel pressure, poly aftertouch, and SysEx
    /// of 20, 64, 128 and 256 bytes (two 256-byte ones and a 128 in one period). Six events
    /// fall in the first period; some on a period's first or last frame, some on adjacent
    /// frames; no two on one frame. Each SysEx carries a tag of its own (`sysEx(length:tag:)`),
    /// so that no two in the schedule are alike (for up to 16 repeats).
    static func varietySchedule(on port: Port = .notes, channel: UInt8 = 0, from first: Int = 0, repeats: Int = 1) -> [Event] {
        let c = channel & 0x0f
        // SysEx tags 1…7 in the first repetition, 9…15 in the next, and so on.
        func pattern(_ r: Int) -> [(Int, [UInt8])] { [
            // Period 0: six events, the first on the schedule's very first frame.
            (0, [0x90 | c, 60, 100]),                 // note on C4
            (37, [0xb0 | c, 7, 100]),                 // CC 7 volume
            (90, [0xb0 | c, 64, 127]),                // CC 64 sustain on
            (131, [0x90 | c, 64, 90]),                // note on E4
            (200, [0xe0 | c, 0x68, 0x47]),            // pitch bend 9192 (0x2000 + 1000)
            (255, [0xc0 | c, 5]),                     // program change, the period's last frame
            // Period 1.
            (256, sysEx(length: 20, tag: 8 * r + 1)), // the period's first frame
            (300, [0xd0 | c, 64]),                    // channel pressure
            (301, [0xa0 | c, 60, 50]),                // poly aftertouch, the next frame
            (400, sysEx(length: 64, tag: 8 * r + 2)),
            (511, [0x80 | c, 64, 0]),                 // note off E4
            // Period 2.
            (512, sysEx(length: 128, tag: 8 * r + 3)),
            (640, [0xb0 | c, 1, 64]),                 // CC 1 modulation
            (700, [0xe0 | c, 0x00, 0x40]),            // pitch bend centre
            // Period 3.
            (768, sysEx(length: 256, tag: 8 * r + 4)),
            (800, [0xb0 | c, 64, 0]),                 // CC 64 sustain off
            (1000, [0x80 | c, 60, 64]),               // note off C4
            // Period 4.
            (1100, [0x90 | c, 67, 1]),                // note on G4, velocity 1
            (1101, [0x90 | c, 67, 0]),                // its note off, as a note-on of velocity 0
            (1200, [0xb0 | c, 7, 127]),
            // Period 5: 256 + 128 + 256 bytes of SysEx and a CC in one period.
            (1280, sysEx(length: 256, tag: 8 * r + 5)),
            (1290, sysEx(length: 128, tag: 8 * r + 6)),
            (1400, sysEx(length: 256, tag: 8 * r + 7)),
            (1500, [0xd0 | c, 0]),
            (1535, [0xb0 | c, 123, 0]),               // all notes off, the period's last frame
        ] }
        return (0..<max(repeats, 0)).flatMap { r in
            pattern(r).map { Event(at: first + r * varietySpan + $0.0, port: port, bytes: $0.1) }
        }
    }

    /// The peer: python3 -c SCRIPT NAME SCHEDULE_JSON GO_FILE.
    static let script = """
    import collections, json, os, signal, sys, threading
    import jack, numpy

    name, schedule_path, go_path = sys.argv[1], sys.argv[2], sys.argv[3]
    burst = json.loads(sys.argv[4]) if len(sys.argv) > 4 else None
    with open(schedule_path) as f:
        raw = json.load(f)
    events = []
    for i, e in enumerate(raw):
        at, port, data = e.get("at"), e.get("port"), e.get("bytes")
        if (type(at) is not int or at < 0 or port not in ("notes", "control") or not isinstance(data, list) or not data
                or any(type(b) is not int or not 0 <= b <= 255 for b in data)):
            sys.exit("bad event %d: %r" % (i, e))
        events.append((at, port, bytes(data), e.get("click", True)))
    events.sort(key=lambda e: e[0])  # stable: one port's events stay in order within a frame

    # The burst's SysEx messages, made before the first cycle (as MidiPeer.sysEx makes them).
    def sysex(length, tag):
        return bytes([0xf0, 0x7d, tag & 0x7f] + [(j * 37 + length // 2 + tag + 1) & 0x7f for j in range(max(length - 4, 0))] + [0xf7])
    burst_sysex = [sysex(burst["size"], tag) for tag in range(128)] if burst and burst["kind"] == "sysex" else []

    def burst_bytes(i):
        if burst["kind"] == "notes":
            k = i // 2
            key = 36 + k % 60
            return bytes([0x90, key, 1 + k % 126]) if i % 2 == 0 else bytes([0x80, key, 64])
        return burst_sysex[i % 128]  # its bytes depend on its tag modulo 128 only

    client = jack.Client(name, no_start_server=True)
    midi = {"notes": client.midi_outports.register("notes"), "control": client.midi_outports.register("control")}
    click = client.outports.register("click")
    frames_out = client.outports.register("frames")
    SCALE = numpy.float32(1.0 / 8388608)

    frame = 0          # frames processed since the first cycle
    go = False         # set by the main thread once the go file exists
    start = None       # the peer frame the schedule starts at
    next_event = 0
    burst_next = 0     # the next burst event, and how many were sent
    burst_sent = 0
    finished = False
    sent = collections.deque()      # (frame, port, bytes), filled in the callback, printed by the main thread
    failures = collections.deque()

    @client.set_process_callback
    def process(n):
        global frame, start, next_event, finished, burst_next, burst_sent
        try:
            for p in midi.values():
                p.clear_buffer()
            c = click.get_array()
            c.fill(0)
            frames_out.get_array()[:] = (numpy.arange(frame, frame + n, dtype=numpy.int64) & 0x7FFFFF).astype(numpy.float32) * SCALE
            if start is None and go:
                start = frame
            if start is not None:
                while next_event < len(events) and start + events[next_event][0] < frame + n:
                    at, port, data, clicked = events[next_event]
                    offset = start + at - frame
                    try:
                        midi[port].write_midi_event(offset, data)
                    except jack.JackError as error:
                        failures.append("event %d (%d bytes on %s at %d): %s" % (next_event, len(data), port, at, error))
                    else:
                        if port == "notes" and clicked:
                            c[offset] = 0.5
                        sent.append((start + at, port, data))
                    next_event += 1
                while burst and burst_next < burst["count"]:
                    at = burst["at"] + burst_next * burst["num"] // burst["den"]
                    if start + at >= frame + n:
                        break
                    offset = start + at - frame
                    data = burst_bytes(burst_next)
                    try:
                        midi["notes"].write_midi_event(offset, data)
                    except jack.JackError as error:
                        failures.append("burst event %d (%d bytes at %d): %s" % (burst_next, len(data), at, error))
                    else:
                        c[offset] = 0.5
                        burst_sent += 1
                    burst_next += 1
                finished = next_event == len(events) and (not burst or burst_next == burst["count"])
        except Exception as error:
            failures.append("process callback: %r" % (error,))
        finally:
            frame += n

    stop = threading.Event()
    client.set_shutdown_callback(lambda status, reason: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    client.activate()
    print("ready", flush=True)

    said_done = False
    while not stop.is_set():
        if not go and os.path.exists(go_path):
            go = True
        over = finished     # read before draining: every event sent by then is in the deque
        while failures:
            print("failed " + failures.popleft(), file=sys.stderr, flush=True)
        while sent:
            k, port, data = sent.popleft()
            print(json.dumps({"frame": k, "port": port, "hex": data.hex()}), flush=True)
        if over and not said_done:
            if burst:
                print("burst %d %d" % (burst_sent, start + burst["at"]), flush=True)
            print("done", flush=True)
            said_done = True
        stop.wait(0.01)
    client.deactivate()
    client.close()
    """
}
