import Foundation
import JackwaveHost
import Testing

/// Dead air (`--silence`): a silent gap of the set length raises `silence_started` and, when
/// it ends, `silence_ended` with its whole length, each handed to `--on-event` as its JSON;
/// `/jackwave/status` shows it while it lasts. The gap is jackwave's own tone paused over OSC,
/// and the truth is the recording itself: where its samples fall below the level.
@Suite("Dead-air alarms", .serialized)
struct AlarmsEndToEndTests {
    /// -50 dBFS, as `--silence -50dB` reads it.
    static let level: Float = 0.0031622776

    @Test("a silent gap of the set length raises both events, frame-exact against the file, and runs --on-event with each",
          arguments: ServerKind.allCases)
    func silentGap(kind: ServerKind) throws {
        let server = try kind.start()
        let dir = temporaryDirectory()
        let port = Int.random(in: 20000..<60000)
        let hookFile = dir + "/hook.jsonl"
        let run = try Run.start(Run.jackwave, ["--record", dir + "/air.wav", "--bits", "float", "--tone", "1000", "--outputs", "1",
                                               "-p", "jackwave:out_1", "-c", "1", "--no-meter", "--osc", "\(port)",
                                               "--silence", "-50dB:1s", "--events", dir + "/air.jsonl",
                                               "--on-event", "cat >> '\(hookFile)'"], server: server.name)
        defer { run.signal(SIGKILL) }
        #expect(run.waitForRecordedFrames(dir + "/air-001.wav", moreThan: 24000), "\(run.stderrSoFar)")
        try OscEndToEndTests.send(port, "/jackwave/tone/pause", "i", "1")
        #expect(run.waitForStderr("dead air: silent since"), "\(run.stderrSoFar)")
        // While it lasts, /jackwave/status says for how long (its 7th field).
        let peer = try OscPeer()
        let reply = peer.status(of: port)?.arguments ?? []
        if reply.count == 8, case let .float(seconds) = reply[6] { #expect(seconds >= 1, "\(reply)") } else { Issue.record("\(reply)") }
        try OscEndToEndTests.send(port, "/jackwave/tone/pause", "i", "0")
        #expect(run.waitForStderr("dead air ended at"), "\(run.stderrSoFar)")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")

        // The truth: the file's last loud sample before the gap, its first after.
        let rec = try Recording(dir + "/air-001.wav")
        let loud = rec.samples.indices.filter { abs(rec.samples[$0]) >= Self.level }
        let gap = try #require(zip(loud, loud.dropFirst()).max { $0.1 - $0.0 < $1.1 - $1.0 })
        let (silentFrom, loudAgain) = (gap.0 + 1, gap.1)
        let events = try EventStream.read(dir + "/air.jsonl")
        let started = try #require(events.first { $0["event"] as? String == "silence_started" })
        let ended = try #require(events.first { $0["event"] as? String == "silence_ended" })
        #expect(started["since_frame"] as? Int == silentFrom && started["frame"] as? Int == silentFrom + 48000, "\(started)")
        #expect(ended["since_frame"] as? Int == silentFrom && ended["frame"] as? Int == loudAgain, "\(ended)")
        let duration = try #require(ended["duration"] as? Double)
        #expect(abs(duration - Double(loudAgain - silentFrom) / 48000) < 1e-9 && duration >= 1, "\(ended)")
        // --on-event got each as the same JSON, and the end too.
        let hooked = try EventStream.read(hookFile).compactMap { $0["event"] as? String }
        #expect(hooked == ["silence_started", "silence_ended", "stopped"], "\(hooked)")
    }
}
