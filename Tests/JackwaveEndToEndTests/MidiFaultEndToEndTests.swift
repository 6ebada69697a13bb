import Foundation
import JackwaveTestSupport
import Testing

/// The fault matrix's MIDI rows (issue 39): what the field sends a MIDI input, and a `.mid`
/// whose file fails, while jackwave records the test source's pattern beside it. After each,
/// the audio is the pattern, sample-exact and complete, and what MIDI lost was said: a line,
/// and a `midi_lost` or `midi_failed` event. The MIDI comes from a real JACK peer
/// (`MidiPeer`), whose clicks, recorded on a third channel, tell each event's frame.
///
/// Each case runs on jackd and PipeWire.
@Suite("MIDI faults: the audio outlives them, and each is said", .serialized)
struct MidiFaultEndToEndTests {
    let dir = temporaryDirectory()
    var take: String { dir + "/take.wav" }
    var mid: String { dir + "/take.mid" }
    var eventsPath: String { dir + "/events.jsonl" }

    /// What a third channel records beside the test source: the peer's clicks, its frame
    /// counter (for dense MIDI, whose clicks would make a signal no input carries), or none.
    enum Third: String {
        case click, frames, none
    }

    /// Starts jackwave recording the test source (channels 1 and 2) and `third` from the
    /// peer (channel 3), for `seconds`, with the peer's `notes` on MIDI input 1; under
    /// `prefix` (a command and its arguments that run it: `prlimit`), if any. Waits until it
    /// has started (its `started` event).
    func start(seconds: Int, third: Third = .click, server: any TestServer, prefix: [String] = []) throws -> Run.Running {
        let arguments = ["--record", take, "--bits", "float", "-c", third == .none ? "2" : "3", "-p", "src:out_1", "-p", "src:out_2"]
            + (third == .none ? [] : ["-p", "midipeer:\(third.rawValue)"])
            + ["--midi", "1", "--midi-port", "midipeer:notes", "-d", "\(seconds)", "--events", eventsPath, "--no-meter"]
        let run = prefix.isEmpty ? try Run.start(Run.jackwave, arguments, server: server.name)
            : try Run.start(prefix[0], Array(prefix.dropFirst()) + [Run.jackwave] + arguments, server: server.name)
        let started = waitUntil(timeout: 30) {
            !run.isRunning || ((try? EventStream.read(eventsPath))?.contains { $0["event"] as? String == "started" } ?? false)
        }
        guard started, run.isRunning else {
            run.signal(SIGKILL)
            throw TestFailure("jackwave did not start: \(run.finish(timeout: 10).stderr)")
        }
        return run
    }

    /// Plays `schedule` (and `burst`) into a run of `seconds` and waits for the run's end.
    /// The test source and the peer are stopped after.
    func record(on kind: ServerKind, seconds: Int, schedule: [MidiPeer.Event], burst: MidiPeer.Burst? = nil, third: Third = .click,
                prefix: [String] = [])
        throws -> (out: Run.Output, peer: MidiPeer, server: any TestServer, source: Run.Running) {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 2)
        let peer: MidiPeer
        do { peer = try MidiPeer.start(server: server.name, schedule: schedule, burst: burst, in: dir) } catch {
            source.signal(SIGTERM)
            _ = source.finish()
            throw error
        }
        defer {
            peer.stop()
            source.signal(SIGTERM)
            _ = source.finish()
        }
        let run = try start(seconds: seconds, third: third, server: server, prefix: prefix)
        peer.go()
        // Well inside the run: each schedule is at most a third of it.
        #expect(peer.waitUntilDone(timeout: Double(seconds) + 30), "the peer did not finish its schedule")
        #expect(run.isRunning, "the run ended before the peer had sent everything: \(run.stderrSoFar)")
        return (run.finish(timeout: Double(seconds) + 120), peer, server, source)
    }

    /// The recording's test pattern (its first two channels), its third channel, and the
    /// frames of the clicks in it.
    func read(_ path: String) throws -> (pattern: Recording, third: [Float], clicks: [Int]) {
        let rec = try Recording(path)
        guard rec.channels == 3 else { return (rec, [], []) }
        var pattern: [Float] = []
        pattern.reserveCapacity(rec.frames * 2)
        var third: [Float] = []
        third.reserveCapacity(rec.frames)
        for f in 0..<rec.frames {
            pattern.append(rec[f, 0])
            pattern.append(rec[f, 1])
            third.append(rec[f, 2])
        }
        return (Recording(channels: 2, sampleRate: rec.sampleRate, samples: pattern), third, third.indices.filter { third[$0] == 0.5 })
    }

    /// The audio is the pattern, sample-exact, and complete: `seconds` of it.
    func expectAudio(_ pattern: Recording, seconds: Int, _ out: Run.Output, server: any TestServer, source: Run.Running,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(pattern.frames == seconds * 48000, "\(pattern.frames) frames: \(out.stderr)", sourceLocation: sourceLocation)
        server.expectPattern(pattern, stderr: out.stderr, source: source, sourceLocation: sourceLocation)
    }

    /// What the `midi_lost` events counted, summed by reason.
    func lostByReason() throws -> [String: Int] {
        var sums: [String: Int] = [:]
        for event in try EventStream.read(eventsPath) where event["event"] as? String == "midi_lost" {
            sums[event["reason"] as? String ?? "?", default: 0] += event["count"] as? Int ?? 0
        }
        return sums
    }

    /// Each clicked event sent (`sent[k]`: the messages it must become, in order) is in
    /// `track` at its click's frame, and nothing else is, up to the last click. On PipeWire,
    /// which may run jackwave without a late peer's output of a whole cycle (as
    /// `ServerKind.expectPattern` allows for audio), an event may be missing, but only with
    /// its click, and the others in order. Returns how many were found.
    @discardableResult
    func expectAtClicks(_ track: [MidiCSV.Event], sent: [[[UInt8]]], clicks: [Int], kind: ServerKind,
                        sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let last = clicks.last ?? -1
        var byTick: [Int: [[UInt8]]] = [:]
        for event in track where event.tick <= last { byTick[event.tick, default: []].append(event.bytes) }
        var k = 0
        var found = 0
        for click in clicks {
            let here = byTick.removeValue(forKey: click) ?? []
            while k < sent.count && sent[k] != here && kind == .pipewire { k += 1 }
            guard k < sent.count else {
                Issue.record("a click at \(click) after every event sent", sourceLocation: sourceLocation)
                break
            }
            #expect(here == sent[k], "event \(k): \(here) at \(click), \(sent[k]) sent", sourceLocation: sourceLocation)
            k += 1
            found += 1
        }
        #expect(byTick.isEmpty, "in the file but at no click: \(byTick.sorted { $0.key < $1.key }.prefix(5))", sourceLocation: sourceLocation)
        #expect(kind == .pipewire || found == sent.count, "\(found) of \(sent.count) events found at \(clicks.count) clicks",
                sourceLocation: sourceLocation)
        return found
    }

    // MARK: Every status byte

    /// Whether a message from the status byte `status` goes into a Standard MIDI File: not
    /// the undefined F4, F5, F9 and FD, nor a stray F7 (malformed), nor System Reset FF (it
    /// would read back as a meta event).
    static func recordable(_ status: Int) -> Bool { ![0xF4, 0xF5, 0xF7, 0xF9, 0xFD, 0xFF].contains(status) }

    /// One event for each status byte from 0x80 to 0xFF, 64 frames apart, with its data
    /// bytes: the channel messages on every channel (note-ons with a velocity above 0, which
    /// PipeWire would turn into note-offs), a SysEx, the system common messages, the
    /// real-time ones. Only those a file holds are clicked.
    static let everyStatus: [MidiPeer.Event] = (0x80...0xFF).map { status in
        let s = UInt8(status), low = UInt8(status & 0x7F)
        let bytes: [UInt8] = switch status {
        case 0x80...0xBF, 0xE0...0xEF: [s, low, UInt8(status * 3 & 0x7F | 1)]
        case 0xC0...0xDF: [s, low]
        case 0xF0: [0xF0, 0x7D, 0x01, 0x02, 0xF7]
        case 0xF1: [0xF1, 0x23]         // MTC quarter frame
        case 0xF2: [0xF2, 0x30, 0x00]   // song position
        case 0xF3: [0xF3, 0x05]         // song select
        default: [s]                    // F4–F7, and the real-time ones
        }
        return MidiPeer.Event(at: (status - 0x80) * 64, port: .notes, bytes: bytes, click: recordable(status))
    }

    @Test("every status byte from 0x80 to 0xFF with its data bytes: each a file holds is at its frame, the rest counted and said",
          arguments: ServerKind.allCases)
    func everyStatusByte(_ kind: ServerKind) throws {
        let (out, peer, server, source) = try record(on: kind, seconds: 4, schedule: Self.everyStatus)
        #expect(out.status == 0, "\(out.stderr)")
        let (pattern, _, clicks) = try read(take)
        expectAudio(pattern, seconds: 4, out, server: server, source: source)
        let sent = try peer.sent()
        #expect(sent.count == 128)
        let recordable = sent.filter { Self.recordable(Int($0.bytes[0])) }.map { [$0.bytes] }
        let found = expectAtClicks(try MidiCSV(mid).track(2), sent: recordable, clicks: clicks, kind: kind)
        // Five malformed, System Reset unrecordable: each counted and said, line and event.
        let lost = try lostByReason()
        if clicks.count == recordable.count {
            #expect(lost == ["malformed": 5, "unrecordable": 1], "\(lost)")
            #expect(out.stderr.contains("MIDI \(mid): midi_1 128 events, 122 in files, 6 lost"), "\(out.stderr)")
        } else {
            // PipeWire lost a cycle of the peer's: what came is counted, no more.
            #expect((lost["malformed"] ?? 0) <= 5 && (lost["unrecordable"] ?? 0) <= 1 && found < recordable.count, "\(lost)")
        }
        #expect(lost.isEmpty || out.stderr.contains("(not valid MIDI)") || out.stderr.contains("(System Reset"), "\(out.stderr)")
    }

    // MARK: Running status

    /// A note, then its running status alone in the next event; three note-ons in one event;
    /// two controllers, two bends, two note-offs, each pair in one event.
    static let runningStatus: [(event: MidiPeer.Event, messages: [[UInt8]])] = [
        (MidiPeer.Event(at: 0, port: .notes, bytes: [0x90, 60, 100]), [[0x90, 60, 100]]),
        (MidiPeer.Event(at: 64, port: .notes, bytes: [62, 101]), [[0x90, 62, 101]]),
        (MidiPeer.Event(at: 128, port: .notes, bytes: [0x91, 64, 90, 65, 91, 67, 92]), [[0x91, 64, 90], [0x91, 65, 91], [0x91, 67, 92]]),
        (MidiPeer.Event(at: 192, port: .notes, bytes: [0xB2, 7, 100, 10, 64]), [[0xB2, 7, 100], [0xB2, 10, 64]]),
        (MidiPeer.Event(at: 256, port: .notes, bytes: [0xE3, 0, 64, 0x7F, 0x7F]), [[0xE3, 0, 64], [0xE3, 0x7F, 0x7F]]),
        (MidiPeer.Event(at: 320, port: .notes, bytes: [0x80, 60, 64, 62, 64]), [[0x80, 60, 64], [0x80, 62, 64]]),
    ]

    @Test("running status, in an event of its own or within one, is expanded: every message at its event's frame, nothing lost",
          arguments: ServerKind.allCases)
    func runningStatus(_ kind: ServerKind) throws {
        let (out, _, server, source) = try record(on: kind, seconds: 4, schedule: Self.runningStatus.map(\.event))
        #expect(out.status == 0, "\(out.stderr)")
        let (pattern, _, clicks) = try read(take)
        expectAudio(pattern, seconds: 4, out, server: server, source: source)
        expectAtClicks(try MidiCSV(mid).track(2), sent: Self.runningStatus.map(\.messages), clicks: clicks, kind: kind)
        // Unless PipeWire did not pass a cycle of the peer's on (a bare running status after
        // a lost note-on is malformed), nothing is lost.
        let lost = try lostByReason()
        #expect(lost.isEmpty || kind == .pipewire && clicks.count < Self.runningStatus.count, "\(lost): \(out.stderr)")
    }

    // MARK: A 64 KiB SysEx

    @Test("a 64 KiB SysEx, in three pieces as JACK must carry it, is kept whole at the frame of its last piece",
          arguments: ServerKind.allCases)
    func longSysEx(_ kind: ServerKind) throws {
        // JACK carries at most about 32 KiB in one event: 30000, 30000 and 5536 bytes, each
        // in a cycle of its own; a note after it. Each piece clicked, so that a piece
        // PipeWire did not pass on (a late peer's cycle) is seen.
        let whole = MidiPeer.sysEx(length: 65536, tag: 9)
        let schedule = [
            MidiPeer.Event(at: 0, port: .notes, bytes: Array(whole[0..<30000])),
            MidiPeer.Event(at: 256, port: .notes, bytes: Array(whole[30000..<60000])),
            MidiPeer.Event(at: 512, port: .notes, bytes: Array(whole[60000...])),
            MidiPeer.Event(at: 600, port: .notes, bytes: [0x90, 60, 100]),
        ]
        let (out, _, server, source) = try record(on: kind, seconds: 4, schedule: schedule)
        #expect(out.status == 0, "\(out.stderr)")
        let (pattern, _, clicks) = try read(take)
        expectAudio(pattern, seconds: 4, out, server: server, source: source)
        if kind == .pipewire && clicks.count < schedule.count {
            // Without a piece, no SysEx can be whole, and jackwave cannot know one is missing.
            print("PipeWire passed on \(clicks.count) of the peer's \(schedule.count) events (clicks at \(clicks.map { $0 - (clicks.first ?? 0) }) after the first); the SysEx is not checked")
            return
        }
        expectAtClicks(try MidiCSV(mid).track(2), sent: [[], [], [whole], [[0x90, 60, 100]]], clicks: clicks, kind: kind)
        let lost = try lostByReason()
        #expect(lost.isEmpty, "\(lost): \(out.stderr)")
    }

    // MARK: 10,000 events a second for a minute

    /// The peer's frame counter is recorded beside, not its clicks: 10,000 clicks a second
    /// make a signal no input carries, whose dropout scan alone costs the writer most of a
    /// core in a debug build.
    @Test("10,000 events a second for a minute: the audio is untouched, and every event is in the .mid at its frame or counted and said",
          arguments: ServerKind.allCases)
    func burst(_ kind: ServerKind) throws {
        let burst = MidiPeer.Burst(count: 600_000, every: (24, 5))
        let (out, peer, server, source) = try record(on: kind, seconds: 66, schedule: [], burst: burst, third: .frames)
        #expect(out.status == 0, "\(out.stderr)")
        let (pattern, frames, _) = try read(take)
        expectAudio(pattern, seconds: 66, out, server: server, source: source)
        let sent = try #require(peer.burstSent())
        #expect(sent.count == burst.count)
        // In the file: events of the burst, in order, each at its frame (the frame whose
        // sample of the peer's counter is the burst's first frame plus the event's own
        // offset) with its bytes; those missing are counted and said (a file holds
        // `MidiPiece.maximumEvents` at most).
        var index: [Int: Int] = [:]
        for i in 0..<burst.count { index[(sent.firstFrame + burst.frame(i)) % MidiPeer.frameModulus] = i }
        var inFile = 0
        var previous = -1
        for event in try MidiCSV(mid).track(2) where event.tick < frames.count {
            guard let peerFrame = MidiPeer.peerFrame(ofSample: frames[event.tick]), let i = index[peerFrame] else {
                // What the end of the file adds at its last frame (no note sounds), or a
                // frame PipeWire gave jackwave none of the peer's output for.
                if event.tick == frames.count - 1 { continue }
                Issue.record("\(event) is at no event's frame")
                break
            }
            guard i > previous, event.bytes == burst.bytes(i) else {
                Issue.record("\(event) is event \(i), not the burst's next after \(previous)")
                break
            }
            previous = i
            inFile += 1
        }
        // Every event received is in the file or said lost (`midi_lost`, and the summary).
        // A MIDI thread that did not end in time may yet write some of those it was said
        // not to have written (`unfinished`) before the process ends: then at least.
        let received = try #require(out.stderr.firstMatch(of: #/MIDI [^\n]*: midi_1 (\d+) events/#).flatMap { Int($0.1) }, "\(out.stderr)")
        let lost = try lostByReason()
        let said = lost.values.reduce(0, +)
        if lost["unfinished"] == nil {
            #expect(inFile + said == received, "\(inFile) in the file, \(lost) said lost, \(received) received")
        } else {
            #expect(inFile + said >= received && inFile <= received, "\(inFile) in the file, \(lost) said lost, \(received) received")
        }
        #expect(kind == .pipewire || received == burst.count, "\(received) received")
        if said > 0 { #expect(out.stderr.contains("MIDI events lost by"), "\(out.stderr)") }
        // Unarmed: no event is outside every file, not even one a full file could not take.
        #expect(!out.stderr.contains("outside every take"), "\(out.stderr)")
    }

    // MARK: A source gone in the middle of a SysEx

    /// Each of the first peer's events is clicked, to see one PipeWire did not pass on. The
    /// source is disconnected, then leaves; not killed: a client killed under jackd -S
    /// costs the whole graph a cycle (the server waits for it until its timeout), which
    /// jackwave says ("the server skipped 256 frames") but which is no fault of the MIDI.
    @Test("a source gone in the middle of a SysEx: its note is kept, the SysEx counted and said, the next source's note recorded",
          arguments: ServerKind.allCases)
    func sourceGoneInASysEx(_ kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        // A note, then a SysEx whose second piece looks like running-status notes, and whose
        // end never comes: the peer is disconnected and gone first.
        let first = try MidiPeer.start(server: server.name, schedule: [
            MidiPeer.Event(at: 0, port: .notes, bytes: [0x90, 60, 100]),
            MidiPeer.Event(at: 256, port: .notes, bytes: [0xF0, 0x7D, 0x05] + [UInt8](repeating: 0x11, count: 100)),
            MidiPeer.Event(at: 512, port: .notes, bytes: [60, 100, 62, 100, 64, 100]),
            MidiPeer.Event(at: 48000 * 600, port: .notes, bytes: [0x12, 0xF7]),
        ], in: dir)
        defer { first.stop() }
        let run = try start(seconds: 12, server: server)
        first.go()
        #expect(waitUntil { (try? first.sent().count) ?? 0 >= 3 || !first.process.isRunning }, "the peer did not send its pieces")
        #expect(try Run.tool("/usr/bin/jack_disconnect", ["midipeer:notes", "jackwave:midi_1"], server: server.name).status == 0)
        first.stop()
        // Another source on the same input: its note ends the SysEx, which is said.
        let second = try MidiPeer.start(server: server.name, name: "midipeer2",
                                        schedule: [MidiPeer.Event(at: 0, port: .notes, bytes: [0x90, 67, 80])], in: dir)
        defer { second.stop() }
        #expect(try Run.tool("/usr/bin/jack_connect", ["midipeer2:notes", "jackwave:midi_1"], server: server.name).status == 0)
        second.go()
        #expect(second.waitUntilDone(), "the second peer did not send its note")
        #expect(run.isRunning, "the run ended before the second peer's note: \(run.stderrSoFar)")
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        let (pattern, _, clicks) = try read(take)
        expectAudio(pattern, seconds: 12, out, server: server, source: source)
        let heard = try first.sent().count + second.sent().count
        #expect(heard == 4)
        if kind == .pipewire && clicks.count < 3 {
            // A piece PipeWire did not pass on changes what the others mean (without its F0,
            // the second piece is running status), and jackwave cannot know it is missing.
            print("PipeWire passed on \(clicks.count) of the first peer's 3 events; the MIDI is not checked")
            return
        }
        // The two notes, then what the end of the file ends (the notes still sounding); the
        // SysEx's second piece is never read as notes.
        let notes = try MidiCSV(mid).track(2).map(\.bytes)
        #expect(notes.prefix(2) == [[0x90, 60, 100], [0x90, 67, 80]], "\(notes)")
        #expect(notes.dropFirst(2).allSatisfy { $0[0] == 0x80 }, "\(notes)")
        #expect(try lostByReason() == ["malformed": 1])
        #expect(out.stderr.contains("midi_1: 1 MIDI event lost by"), "\(out.stderr)")
    }

    // MARK: The .mid's file failing

    @Test("the .mid's writes refused in the middle (a file size limit it alone passes): said, counted, the .mid keeps what it had, the audio complete",
          arguments: ServerKind.allCases)
    func midiFileFails(_ kind: ServerKind) throws {
        // 16-KiB SysEx messages every 768 frames (1 MB/s) grow the .mid past 2 MB within the
        // run, while 4 s of the two float channels are 1.5 MB: only the .mid's writes fail.
        let burst = MidiPeer.Burst(count: 200, every: (768, 1), kind: .sysex, size: 16384)
        let (out, peer, server, source) = try record(on: kind, seconds: 4, schedule: [], burst: burst, third: .none,
                                                     prefix: ["/usr/bin/prlimit", "--fsize=2000000"])
        #expect(out.status == 0, "\(out.stderr)")
        expectAudio(try Recording(take), seconds: 4, out, server: server, source: source)
        #expect(peer.burstSent()?.count == burst.count)
        let events = try EventStream.read(eventsPath)
        let failed = events.filter { $0["event"] as? String == "midi_failed" }
        #expect(failed.count == 1 && failed.first?["path"] as? String == mid, "\(failed)")
        #expect(out.stderr.contains("MIDI: ") && out.stderr.contains("\(mid) keeps what it had, and the audio goes on"), "\(out.stderr)")
        // What came after is counted and said; what the .mid had, it keeps, readable.
        let lost = try lostByReason()
        #expect((lost["failed"] ?? 0) > 0, "\(lost)")
        // The burst's first messages, in order (on PipeWire, one may be missing, with a late
        // peer's cycle).
        let kept = try MidiCSV(mid).track(2).map(\.bytes)
        var i = 0
        for message in kept {
            while i < burst.count && burst.bytes(i) != message && kind == .pipewire { i += 1 }
            guard i < burst.count, burst.bytes(i) == message else {
                Issue.record("the .mid holds a message the burst did not send in that order, after \(i)")
                break
            }
            i += 1
        }
        #expect(!kept.isEmpty && kept.count < burst.count, "\(kept.count) SysEx kept")
    }
}
