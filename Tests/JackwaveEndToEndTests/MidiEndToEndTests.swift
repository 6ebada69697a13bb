import Foundation
import JackwaveTestSupport
import Testing

/// MIDI beside the audio, against a real server and a peer (`MidiPeer`) that plays MIDI and
/// a click on the same frames: every event's tick must be its click's sample index, in one
/// file, in `--split` pieces and in MMC takes, read back by `midicsv`.
@Suite("MIDI: events at their exact frames, beside the audio", .serialized)
struct MidiEndToEndTests {
    let dir = temporaryDirectory()

    /// Starts jackwave with `arguments` and waits until it has started (its `started`
    /// event); the caller sends the schedule and stops it.
    func startJackwave(_ arguments: [String], server: any TestServer) throws -> Run.Running {
        let events = dir + "/events.jsonl"
        let run = try Run.start(Run.jackwave, arguments + ["--events", events, "--no-meter"], server: server.name)
        let started = waitUntil(timeout: 30) {
            !run.isRunning || ((try? EventStream.read(events))?.contains { $0["event"] as? String == "started" } ?? false)
        }
        guard started, run.isRunning else {
            run.signal(SIGKILL)
            throw TestFailure("jackwave did not start: \(run.finish(timeout: 10).stderr)")
        }
        return run
    }

    /// Plays `schedule` and waits until jackwave's `.mid` at `midi` holds `count` messages on
    /// track 2 (so every event has reached the file), then stops jackwave with Ctrl-C. On
    /// PipeWire, which may lose a late peer's cycle and the events in it, it waits instead
    /// until `wav` (the audio beside) holds a second more than when the peer was done: the
    /// header lags by at most half of it, and every event comes before its frames' audio, so
    /// by then each event sent was received or lost.
    func play(_ peer: MidiPeer, into run: Run.Running, midi: String?, count: Int, wav: String? = nil,
              kind: ServerKind = .jackd) throws -> Run.Output {
        peer.go()
        try #require(peer.waitUntilDone(), "the peer did not finish its schedule")
        if kind == .pipewire, let wav {
            #expect(run.waitForRecordedFrames(wav, moreThan: Recording.framesSoFar(wav) + 48000), "\(wav) did not grow after the peer was done")
        } else if let midi {
            let arrived = waitUntil(timeout: 30) { ((try? MidiCSV(midi))?.track(2).count ?? 0) >= count || !run.isRunning }
            #expect(arrived, "\(midi) did not get \(count) events")
        }
        run.signal(SIGINT)
        return run.finish(timeout: 60)
    }

    @Test("every event's tick equals its click's sample index, and midicsv reads the bytes sent", arguments: ServerKind.allCases)
    func oneFile(_ kind: ServerKind) throws {
        let server = try kind.start()
        let schedule = MidiPeer.varietySchedule(repeats: 3)
        let peer = try MidiPeer.start(server: server.name, schedule: schedule, in: dir)
        defer { peer.stop() }
        let run = try startJackwave(["--record", dir + "/take.wav", "--bits", "float", "-c", "1", "-p", "midipeer:click",
                                     "--midi", "1", "--midi-port", "midipeer:notes"], server: server)
        let out = try play(peer, into: run, midi: dir + "/take.mid", count: schedule.count, wav: dir + "/take.wav", kind: kind)
        #expect(out.status == 0, "\(out.stderr)")
        let sent = try peer.sent()
        let file = try MidiCSV(dir + "/take.mid")
        #expect(file.division == 480 && file.tempos == [10000], "\(file.division) \(file.tempos)")
        #expect(file.names[2] == "midipeer:notes", "\(file.names)")
        let track = Array(file.track(2).prefix(sent.count))
        let clickFrames = clicks(in: try Recording(dir + "/take.wav"), channel: 0)
        // PipeWire may run jackwave without a late peer's output of a whole cycle (as
        // `ServerKind`'s `expectPattern` allows for audio): there, events may be missing, but
        // only with their clicks, and the others in order.
        try #require(track.count == clickFrames.count && (kind == .pipewire || track.count == sent.count),
                     "\(sent.count) sent, \(track.count) in the file, \(clickFrames.count) clicks")
        // PipeWire's JACK delivers a note-on of velocity 0 as the note-off it means
        // (0x80, velocity 64): what jackwave received, and recorded.
        func delivered(_ bytes: [UInt8]) -> [UInt8] {
            kind == .pipewire && bytes.count == 3 && bytes[0] & 0xF0 == 0x90 && bytes[2] == 0 ? [0x80 | bytes[0] & 0x0F, bytes[1], 64] : bytes
        }
        var k = 0
        for (i, event) in track.enumerated() where i < clickFrames.count {
            while k < sent.count && delivered(sent[k].bytes) != event.bytes && kind == .pipewire { k += 1 }
            guard k < sent.count else { Issue.record("event \(i): \(event.bytes) in the file was not sent"); break }
            #expect(event.tick == clickFrames[i], "event \(i): tick \(event.tick), click at \(clickFrames[i])")
            #expect(event.bytes == delivered(sent[k].bytes), "event \(i): \(event.bytes) in the file, \(sent[k].bytes) sent")
            k += 1
        }
        #expect(out.stderr.contains("MIDI \(dir)/take.mid: midi_1 \(track.count) events"), "\(out.stderr)")
    }

    /// Events 0.2 s apart over 2.6 s, with a note and the sustain pedal held from the first
    /// to the last: cut by `--split 1`, every piece must chase them.
    static let spreadSchedule: [MidiPeer.Event] =
        [MidiPeer.Event(at: 0, port: .notes, bytes: [0x90, 60, 99]), MidiPeer.Event(at: 10, port: .notes, bytes: [0xB0, 64, 127])]
        + (1...12).map { MidiPeer.Event(at: $0 * 9600, port: .notes, bytes: [0xB0, 1, UInt8($0)]) }
        + [MidiPeer.Event(at: 124_800, port: .notes, bytes: [0x80, 60, 0]), MidiPeer.Event(at: 124_810, port: .notes, bytes: [0xB0, 64, 0])]

    @Test("with --split, each event lands in the piece that holds its frame, and held notes and pedals are chased", arguments: ServerKind.allCases)
    func pieces(_ kind: ServerKind) throws {
        let server = try kind.start()
        let peer = try MidiPeer.start(server: server.name, schedule: Self.spreadSchedule, in: dir)
        defer { peer.stop() }
        let run = try startJackwave(["--record", dir + "/take.wav", "--bits", "float", "-c", "1", "-p", "midipeer:click",
                                     "--midi", "1", "--midi-port", "midipeer:notes", "--split", "1"], server: server)
        let out = try play(peer, into: run, midi: nil, count: 0)
        #expect(out.status == 0, "\(out.stderr)")
        let sent = try peer.sent()
        // The pieces, in order, with their clicks and their MIDI.
        var pieces: [(clicks: [Int], frames: Int, midi: MidiCSV)] = []
        for n in 1... {
            let wav = dir + String(format: "/take-%03d.wav", n)
            guard FileManager.default.fileExists(atPath: wav) else { break }
            let recording = try Recording(wav)
            pieces.append((clicks(in: recording, channel: 0), recording.frames, try MidiCSV(dir + String(format: "/take-%03d.mid", n))))
        }
        try #require(pieces.count >= 3, "\(pieces.count) pieces")
        // Each event sent is in the piece its click is in, at the click's index. PipeWire may
        // run jackwave without a late peer's output of a whole cycle (as `ServerKind`'s
        // `expectPattern` allows for audio): there, an event may be missing, but only with
        // its click, and the others still in order.
        var k = 0
        var received: [[UInt8]] = []
        for (p, piece) in pieces.enumerated() {
            for click in piece.clicks {
                let there = piece.midi.track(2).filter { $0.tick == click }.map(\.bytes)
                while k < sent.count && !there.contains(sent[k].bytes) && kind == .pipewire { k += 1 }
                guard k < sent.count else { Issue.record("piece \(p + 1): a click at \(click) after every event sent"); break }
                #expect(there.contains(sent[k].bytes), "piece \(p + 1): \(sent[k].bytes) not at tick \(click): \(piece.midi.track(2))")
                received.append(sent[k].bytes)
                k += 1
            }
        }
        #expect(kind == .pipewire || received.count == sent.count, "\(received.count) clicks for \(sent.count) events")
        // The chase needs the held note and pedal (the first two events) to have arrived.
        guard Array(received.prefix(2)) == sent.prefix(2).map(\.bytes) else {
            #expect(kind == .pipewire, "the note and the pedal were not received")
            return
        }
        // Where the note and the pedal were held across a cut: ended at the old piece's last
        // tick, started again at the new one's tick 0, each piece's tracks as long as its audio.
        var timeline: [Int] = []
        var offset = 0
        for piece in pieces {
            timeline += piece.clicks.map { $0 + offset }
            offset += piece.frames
        }
        let noteOn = timeline.first ?? 0
        let noteOff = received.firstIndex { $0 == [0x80, 60, 0] }.flatMap { $0 < timeline.count ? timeline[$0] : nil } ?? 0
        var position = 0
        for (p, piece) in pieces.enumerated() {
            let end = position + piece.frames
            let track = piece.midi.track(2)
            #expect(piece.midi.ends[2] == piece.frames, "piece \(p + 1): track ends at \(piece.midi.ends[2] ?? -1), audio \(piece.frames)")
            if end > noteOn && end < noteOff && p + 1 < pieces.count {
                #expect(track.contains { $0.tick == piece.frames - 1 && $0.bytes == [0x80, 60, 0x40] }, "piece \(p + 1) ends its note: \(track.suffix(3))")
                #expect(track.contains { $0.tick == piece.frames - 1 && $0.bytes == [0xB0, 64, 0] }, "piece \(p + 1) lets the pedal go")
                let next = pieces[p + 1].midi.track(2)
                #expect(next.contains { $0.tick == 0 && $0.bytes == [0x90, 60, 99] }, "piece \(p + 2) starts the note again: \(next.prefix(4))")
                #expect(next.contains { $0.tick == 0 && $0.bytes == [0xB0, 64, 127] }, "piece \(p + 2) holds the pedal again")
            }
            position = end
        }
    }

    /// MMC on the peer's `control` port: a take from RECORD STROBE to RECORD EXIT, another
    /// to STOP; a LOCATE between them, ignored; note 100 there drops a marker.
    static let machineControlSchedule: [MidiPeer.Event] = [
        MidiPeer.Event(at: 2000, port: .control, bytes: [0xF0, 0x7F, 0x7F, 0x06, 0x06, 0xF7]),
        MidiPeer.Event(at: 5000, port: .notes, bytes: [0x90, 64, 80]),
        MidiPeer.Event(at: 10000, port: .control, bytes: [0x90, 100, 127]),
        MidiPeer.Event(at: 20000, port: .notes, bytes: [0x80, 64, 0]),
        MidiPeer.Event(at: 30000, port: .control, bytes: [0xF0, 0x7F, 0x7F, 0x06, 0x07, 0xF7]),
        MidiPeer.Event(at: 40000, port: .control, bytes: [0xF0, 0x7F, 0x7F, 0x06, 0x44, 0x06, 0x01, 0, 0, 0, 0, 0, 0xF7]),
        MidiPeer.Event(at: 50000, port: .control, bytes: [0xF0, 0x7F, 0x7F, 0x06, 0x06, 0xF7]),
        MidiPeer.Event(at: 60000, port: .notes, bytes: [0xB0, 7, 90]),
        MidiPeer.Event(at: 70000, port: .control, bytes: [0xF0, 0x7F, 0x7F, 0x06, 0x01, 0xF7]),
    ]

    @Test("MMC RECORD STROBE starts a take at its frame, RECORD EXIT and STOP end it at theirs", arguments: ServerKind.allCases)
    func machineControl(_ kind: ServerKind) throws {
        let server = try kind.start()
        let peer = try MidiPeer.start(server: server.name, schedule: Self.machineControlSchedule, in: dir)
        defer { peer.stop() }
        let run = try startJackwave(["--record", dir + "/take.wav", "--bits", "float", "-c", "2", "-p", "midipeer:click",
                                     "-p", "midipeer:frames", "--midi", "1", "--midi-port", "midipeer:notes",
                                     "--mmc", "midipeer:control", "--midi-marker", "100"], server: server)
        peer.go()
        try #require(peer.waitUntilDone(), "the peer did not finish its schedule")
        // The second take has ended once its file's MIDI is final (its `midi_file_closed`).
        let closed = waitUntil(timeout: 30) {
            ((try? EventStream.read(dir + "/events.jsonl"))?.filter { $0["event"] as? String == "midi_file_closed" }.count ?? 0) >= 2
        }
        #expect(closed, "the takes' MIDI files were not closed")
        run.signal(SIGINT)
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        let sent = try peer.sent()
        let control = sent.filter { $0.port == .control }
        let notes = sent.filter { $0.port == .notes }
        try #require(control.count == 6 && notes.count == 3)
        let takes = [(control[0].frame, control[2].frame), (control[4].frame, control[5].frame)]
        for (t, (strobe, end)) in takes.enumerated() {
            let take = try Recording(dir + String(format: "/take-%03d.wav", t + 1))
            try #require(take.frames > 0 && take.channels == 2)
            #expect(MidiPeer.peerFrame(ofSample: take[0, 1]) == strobe % MidiPeer.frameModulus, "take \(t + 1) starts at the strobe")
            #expect(MidiPeer.peerFrame(ofSample: take[take.frames - 1, 1]) == (end - 1) % MidiPeer.frameModulus, "take \(t + 1) ends before its exit")
            if kind == .jackd { #expect(take.frames == end - strobe, "take \(t + 1): \(take.frames) frames") }
            // The take's notes, at their clicks.
            let midi = try MidiCSV(dir + String(format: "/take-%03d.mid", t + 1))
            let inTake = notes.filter { $0.frame >= strobe && $0.frame < end }
            let heard = clicks(in: take, channel: 0)
            #expect(heard.count == inTake.count, "take \(t + 1): \(heard.count) clicks, \(inTake.count) notes")
            for (i, note) in inTake.enumerated() where i < heard.count {
                #expect(midi.track(2).contains { $0.tick == heard[i] && $0.bytes == note.bytes }, "take \(t + 1): \(note.bytes) at \(heard[i])")
            }
        }
        let events = try EventStream.read(dir + "/events.jsonl")
        let commands = events.filter { $0["event"] as? String == "mmc" }.compactMap { $0["command"] as? String }
        #expect(commands == ["record_strobe", "record_exit", "ignored", "record_strobe", "stop"], "\(commands)")
        #expect(out.stderr.contains("MMC command 0x44"), "LOCATE is said to be ignored: \(out.stderr)")
        // The marker: as far from the first take's trigger as the note was from the strobe.
        let trigger = events.first { $0["event"] as? String == "trigger" }?["frame"] as? Int
        let marker = events.first { $0["event"] as? String == "marker" }?["frame"] as? Int
        if let trigger, let marker {
            #expect(marker - trigger == control[1].frame - control[0].frame, "marker at \(marker), trigger at \(trigger)")
        } else {
            Issue.record("no trigger or marker event: \(events)")
        }
        #expect(out.stderr.contains("MMC: 2 RECORD STROBE, 1 RECORD EXIT, 1 STOP, 1 IGNORED"), "\(out.stderr)")
    }

    @Test("--record take.mid records MIDI alone, each event as far from the first as it was sent")
    func midiAlone() throws {
        let server = try ServerKind.jackd.start()
        let schedule = MidiPeer.varietySchedule(repeats: 2)
        let peer = try MidiPeer.start(server: server.name, schedule: schedule, in: dir)
        defer { peer.stop() }
        let run = try startJackwave(["--record", dir + "/alone.mid", "--midi", "1", "--midi-port", "midipeer:notes"], server: server)
        let out = try play(peer, into: run, midi: dir + "/alone.mid", count: schedule.count)
        #expect(out.status == 0, "\(out.stderr)")
        let sent = try peer.sent()
        let track = try MidiCSV(dir + "/alone.mid").track(2)
        try #require(track.count == sent.count && !sent.isEmpty, "\(track.count) in the file, \(sent.count) sent")
        for i in track.indices where i < sent.count {
            #expect(track[i].tick - track[0].tick == sent[i].frame - sent[0].frame && track[i].bytes == sent[i].bytes, "event \(i)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/alone.wav"))
    }

    @Test("after SIGKILL the .mid reads back with every event received before the crash bound")
    func killed() throws {
        let server = try ServerKind.jackd.start()
        let schedule = MidiPeer.varietySchedule(repeats: 2)
        let peer = try MidiPeer.start(server: server.name, schedule: schedule, in: dir)
        defer { peer.stop() }
        let run = try startJackwave(["--record", dir + "/take.wav", "-c", "1", "-p", "midipeer:click",
                                     "--midi", "1", "--midi-port", "midipeer:notes"], server: server)
        peer.go()
        try #require(peer.waitUntilDone())
        // Within the crash bound (0.5 s), the file holds every event; then the kill.
        let arrived = waitUntil(timeout: 30) { ((try? MidiCSV(dir + "/take.mid"))?.track(2).count ?? 0) >= schedule.count }
        run.signal(SIGKILL)
        _ = run.finish(timeout: 10)
        #expect(arrived)
        let sent = try peer.sent()
        let track = try MidiCSV(dir + "/take.mid").track(2)
        #expect(track.map(\.bytes) == sent.map(\.bytes), "\(track.count) read back, \(sent.count) sent")
    }

    @Test("a MIDI setting that cannot act is refused with one line and exit 2, and no file is made",
          arguments: [
            (["--record", "x.mid"], "give --midi N"),
            (["--record", "x.mid", "--midi", "1", "--split", "5"], "holds MIDI alone"),
            (["--record", "x.wav", "--mmc", "a:b", "--trigger", "-20dB"], "exclude each other"),
            (["--record", "x.wav", "--midi", "1", "--keep", "1d", "--split", "60"], "retention does not list .mid files"),
            (["--record", "x.wav", "--midi-marker", "cc64"], "needs --mmc"),
            (["--midi", "1", "--midi-marker", "200", "--record", "x.wav", "--mmc", "a:b"], "neither a note"),
          ])
    func refused(_ arguments: [String], _ said: String) throws {
        let here = temporaryDirectory()
        let out = try Run.jackwave(arguments.map { $0.hasPrefix("x.") ? here + "/" + $0 : $0 }, server: nil)
        #expect(out.status == 2, "\(out.stderr)")
        #expect(out.stderr.contains(said) && out.stderr.split(separator: "\n").count == 1, "\(out.stderr)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: here)).isEmpty)
    }
}
