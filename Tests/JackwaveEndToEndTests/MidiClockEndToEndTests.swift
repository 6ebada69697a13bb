import Foundation
import JackwaveTestSupport
import Testing

/// What keyboards and DAWs send between the notes, recorded beside the audio by a real peer
/// (`MidiPeer`): Active Sensing (FE) every 300 ms, as many keyboards send it, and MIDI clock
/// at 120 BPM (F8, 24 a quarter note: 48 a second), with the Song Position, Start and Stop
/// a DAW sends around it. Each of these bytes once aborted jackwave, audio and all.
///
/// 30 s by default; `JACKWAVE_MIDI_SOAK_SECONDS` makes it longer (the issue asks for 600:
/// on 2026-12-03, jackd 33,204 of 33,204 events, PipeWire 33,164, the 40 others on the 126
/// cycles of the peer the server left out, the audio sample-exact on both).
@Suite("MIDI: Active Sensing and clock beside the audio", .serialized)
struct MidiClockEndToEndTests {
    let dir = temporaryDirectory()

    /// How long the peer plays, in seconds.
    static var seconds: Int {
        ProcessInfo.processInfo.environment["JACKWAVE_MIDI_SOAK_SECONDS"].flatMap { Int($0) }.map { max($0, 2) } ?? 30
    }

    /// `seconds` of it at 48 kHz, on `notes`: Song Position (F2 30 00), Start (FA) and Song
    /// Select (F3), clock every 1000 frames, Active Sensing every 14,400, a note on every
    /// 24,000 and off 12,000 later, Stop (FC) at the end.
    static func schedule(seconds: Int) -> [MidiPeer.Event] {
        let frames = seconds * 48000
        var events: [MidiPeer.Event] = [
            MidiPeer.Event(at: 0, port: .notes, bytes: [0xF2, 0x30, 0x00]),
            MidiPeer.Event(at: 10, port: .notes, bytes: [0xFA]),
            MidiPeer.Event(at: 20, port: .notes, bytes: [0xF3, 0x05]),
        ]
        events += stride(from: 100, to: frames, by: 1000).map { MidiPeer.Event(at: $0, port: .notes, bytes: [0xF8]) }
        events += stride(from: 50, to: frames, by: 14_400).map { MidiPeer.Event(at: $0, port: .notes, bytes: [0xFE]) }
        for (i, at) in stride(from: 333, to: frames - 12_000, by: 24_000).enumerated() {
            let key = UInt8(48 + i % 24)
            events.append(MidiPeer.Event(at: at, port: .notes, bytes: [0x90, key, UInt8(40 + i % 80)]))
            events.append(MidiPeer.Event(at: at + 12_000, port: .notes, bytes: [0x80, key, 64]))
        }
        events.append(MidiPeer.Event(at: frames + 500, port: .notes, bytes: [0xFC]))
        return events.sorted { $0.at < $1.at }
    }

    @Test("Active Sensing every 300 ms and a 120 BPM MIDI clock, with notes between them, are each in the .mid at its frame, and the audio beside is sample-exact",
          arguments: ServerKind.allCases)
    func clockAndActiveSensing(_ kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 1)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let schedule = Self.schedule(seconds: Self.seconds)
        let peer = try MidiPeer.start(server: server.name, schedule: schedule, in: dir)
        defer { peer.stop() }
        let wav = dir + "/take.wav", mid = dir + "/take.mid", events = dir + "/events.jsonl"
        // The source's pattern, and the peer's frame counter (`MidiPeer`'s `frames`), which
        // tells each recorded frame's peer frame, so each event's. A 30-s ring: a debug build's
        // writer, which checks every sample for dropouts, can fall behind for a while on a
        // loaded 2-core machine.
        let run = try Run.start(Run.jackwave, ["--record", wav, "--bits", "float", "-c", "2", "-p", "src:out_1", "-p", "midipeer:frames",
                                               "--buffer", "30", "--midi", "1", "--midi-port", "midipeer:notes", "--events", events,
                                               "--no-meter"], server: server.name)
        let started = waitUntil(timeout: 30) {
            !run.isRunning || ((try? EventStream.read(events))?.contains { $0["event"] as? String == "started" } ?? false)
        }
        guard started, run.isRunning else {
            run.signal(SIGKILL)
            Issue.record("jackwave did not start: \(run.finish(timeout: 10).stderr)")
            return
        }
        peer.go()
        try #require(peer.waitUntilDone(timeout: Double(Self.seconds) + 60), "the peer did not finish its schedule")
        // Every event comes before its frames' audio: once the file holds a second more than
        // when the peer was done (its header lags by half of that at most), each event sent
        // was received, or lost with its cycle (PipeWire may run jackwave without a late
        // peer's output of a cycle). On jackd, wait for the .mid to hold them all too.
        // (Bounds as long as the ring: a writer that fell behind catches up first.)
        #expect(run.waitForRecordedFrames(wav, moreThan: Recording.framesSoFar(wav) + 48000, timeout: 90), "\(wav) did not grow after the peer was done")
        if kind == .jackd {
            let arrived = waitUntil(timeout: 90) { ((try? MidiCSV(mid))?.track(2).count ?? 0) >= schedule.count || !run.isRunning }
            #expect(arrived, "\(mid) did not get \(schedule.count) events")
        }
        run.signal(SIGINT)
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        // No MIDI failure (`MIDI: …`) nor loss (`midi_1: N MIDI events lost by …`) was said.
        #expect(!out.stderr.contains("MIDI:") && !out.stderr.contains("lost by"), "\(out.stderr)")

        let sent = try peer.sent()
        let recording = try Recording(wav)
        try #require(recording.channels == 2)
        // The audio: the source's channel, sample-exact.
        let audio = Recording(channels: 1, samples: (0..<recording.frames).map { recording[$0, 0] })
        server.expectPattern(audio, stderr: out.stderr, source: source)
        // The MIDI, as midicsv and portSMF read it: each event where the recorded frame counter
        // says the peer sent it.
        let csv = try MidiCSV(mid).track(2)
        let portSMF = try SMFReader(mid, with: .portSMF).messages(track: 1)
        #expect(portSMF == csv, "portSMF and midicsv read \(portSMF.count) and \(csv.count) events")
        try #require(kind == .pipewire || csv.count == sent.count, "\(sent.count) sent, \(csv.count) in the file")
        // Every event in the file was sent at the peer frame recorded at its tick; clocks are
        // all alike, so an event is found by its frame, not by its place. The frame channel
        // counts modulo 2^23 (175 s): the lap is the one nearest to where the last event
        // found says the peer was.
        var unmatched: [Int: [[UInt8]]] = [:]
        for event in sent { unmatched[event.frame, default: []].append(event.bytes) }
        var last = (tick: 0, frame: sent.first?.frame ?? 0)
        var found = 0
        // Keys still sounding (channel × 128 + key), and the note-offs jackwave added at the
        // file's last tick: a note whose note-off never came is ended there (`ChaseState`).
        var sounding = Set<Int>(), ended = Set<Int>()
        for (i, event) in csv.enumerated() {
            let b = event.bytes
            if event.tick == recording.frames - 1 && b.count == 3 && b[0] & 0xF0 == 0x80 && b[2] == 64
                && sounding.contains(Int(b[0] & 0x0F) * 128 + Int(b[1])) {
                ended.insert(Int(b[0] & 0x0F) * 128 + Int(b[1]))
                continue
            }
            guard let heard = recording.sample(frame: event.tick, channel: 1).flatMap(MidiPeer.peerFrame(ofSample:)) else {
                Issue.record("event \(i) (\(event.bytes)) at tick \(event.tick), where the recording holds no peer frame")
                continue
            }
            let near = last.frame + event.tick - last.tick
            let frame = heard + Int((Double(near - heard) / Double(MidiPeer.frameModulus)).rounded()) * MidiPeer.frameModulus
            guard let k = unmatched[frame]?.firstIndex(of: event.bytes) else {
                Issue.record("event \(i) (\(event.bytes)) at tick \(event.tick), where the peer was at \(frame) and sent \(unmatched[frame] ?? [])")
                continue
            }
            unmatched[frame]?.remove(at: k)
            last = (event.tick, frame)
            found += 1
            if b.count == 3 && b[0] & 0xF0 == 0x90 && b[2] > 0 { sounding.insert(Int(b[0] & 0x0F) * 128 + Int(b[1])) }
            if b.count == 3 && (b[0] & 0xF0 == 0x80 || b[0] & 0xF0 == 0x90 && b[2] == 0) { sounding.remove(Int(b[0] & 0x0F) * 128 + Int(b[1])) }
        }
        #expect(ended == sounding, "notes left sounding \(sounding.sorted()), ended at the last tick \(ended.sorted())")
        // On PipeWire an event may be missing, but only where the server ran jackwave without
        // a late peer's output of a cycle (as `expectPattern` allows for audio): where the
        // peer's frame counter is missing from the recording too. On jackd, none.
        #expect(kind == .pipewire || found == sent.count, "\(found) of \(sent.count) sent found at their frames")
        let missing = Set(unmatched.filter { !$0.value.isEmpty }.keys)
        if !missing.isEmpty {
            var lap = 0, previous = -1
            var heardThere: [Int] = []
            for f in 0..<recording.frames {
                guard recording[f, 1] > 0, let p = MidiPeer.peerFrame(ofSample: recording[f, 1]) else { continue }
                if previous >= 0 && p < previous - MidiPeer.frameModulus / 2 { lap += 1 }
                previous = p
                if missing.contains(p + lap * MidiPeer.frameModulus) { heardThere.append(p + lap * MidiPeer.frameModulus) }
            }
            #expect(heardThere.isEmpty, "events missing from the .mid at peer frames whose audio was recorded: \(heardThere.prefix(8))")
        }
        let clocks = csv.filter { $0.bytes == [0xF8] }.count, sensing = csv.filter { $0.bytes == [0xFE] }.count
        print("\(kind.testDescription), \(Self.seconds) s: \(found) of \(sent.count) events sent in the .mid at their frames (\(clocks) clocks, \(sensing) Active Sensing), \(recording.frames) frames of audio")
        #expect(out.stderr.contains("MIDI \(mid): midi_1 \(csv.count) events"), "\(out.stderr)")
    }
}
