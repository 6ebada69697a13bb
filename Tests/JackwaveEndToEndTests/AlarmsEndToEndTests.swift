import Foundation
import JackwaveTestSupport
import JackwaveHost
import Testing

/// Dead air (`--silence`): a silent gap of the set length raises `silence_started` and, when
/// it ends, `silence_ended` with its whole length, each handed to `--on-event` as its JSON;
/// `/jackwave/status` shows it while it lasts. The gap is jackwave's own tone paused over OSC,
/// and the truth is the recording itself: where its samples fall below the level. Clipping
/// (`--clip`) is counted against the recording's own samples of a peer that clips.
@Suite("Dead-air and clipping alarms", .serialized)
struct AlarmsEndToEndTests {
    /// -50 dBFS, as `--silence -50dB` reads it.
    static let level: Float = 0.0031622776

    @Test("a silent gap of the set length raises both events, frame-exact against the file, and runs --on-event with each",
          arguments: ServerKind.allCases)
    func silentGap(kind: ServerKind) throws {
        let server = try kind.start()
        let dir = temporaryDirectory()
        let port = try FreePort.udp()
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
        if reply.count == 13, case let .float(seconds) = reply[6] { #expect(seconds >= 1, "\(reply)") } else { Issue.record("\(reply)") }
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

    /// A peer (python3-jack-client) playing 240 frames at full scale (1.0), then 240 at half
    /// scale, and so on: a source that clips 100 times a second at 48 kHz.
    static let squareWavePeer = """
    import jack, numpy, threading
    client = jack.Client("clipper", no_start_server=True)
    out = client.outports.register("out_1")
    position = 0
    @client.set_process_callback
    def process(frames):
        global position
        k = numpy.arange(position, position + frames)
        out.get_array()[:] = numpy.where((k // 240) % 2 == 0, 1.0, 0.5)
        position += frames
    client.activate()
    print("ready", flush=True)
    threading.Event().wait()
    """

    @Test("clipping: each second's clips are one event, counted per input as the recording's own samples count them")
    func clippingPerSecond() throws {
        // jackd only: the counting is the writer's, whatever the server.
        let server = try ServerKind.jackd.start()
        let dir = temporaryDirectory()
        let peer = try Run.start("/usr/bin/python3", ["-c", Self.squareWavePeer], server: server.name)
        defer { peer.signal(SIGKILL); _ = peer.finish(timeout: 5) }
        try #require(waitUntil(timeout: 30) { peer.stdoutSoFar.contains("ready") || !peer.isRunning }, "\(peer.stderrSoFar)")
        // in_1 from the peer, in_2 unconnected (silence: it never clips).
        let run = try Run.jackwave(["--record", dir + "/clip.wav", "--bits", "float", "-c", "2", "-p", "clipper:out_1",
                                    "--clip", "3", "--events", dir + "/clip.jsonl", "--duration", "3", "--no-meter"],
                                   server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("clipping: "), "\(run.stderr)")

        // The truth: runs of 3 or more samples at |x| ≥ 0.9999 on in_1, each in the second it reached 3.
        let rec = try Recording(dir + "/clip.wav")
        #expect(rec.frames == 3 * 48000)
        var truth = [Int](repeating: 0, count: 3), run3 = 0
        for f in 0..<rec.frames {
            // A frame past the 3 s (a run too long, which the check above reports) counts nowhere.
            if abs(rec[f, 0]) >= 0.9999 { run3 += 1; if run3 == 3, f / 48000 < truth.count { truth[f / 48000] += 1 } } else { run3 = 0 }
        }
        // About 100 a second (a late peer's cycle may split a stretch or two): the source really clipped.
        #expect(truth.allSatisfy { $0 >= 90 && $0 <= 110 }, "\(truth)")
        let clipping = try EventStream.read(dir + "/clip.jsonl").filter { $0["event"] as? String == "clipping" }
        #expect(clipping.count == 3, "\(clipping)")
        for (second, event) in clipping.enumerated() where second < 3 {
            #expect(event["frame"] as? Int == second * 48000, "\(event)")
            #expect(event["count"] as? Int == truth[second], "second \(second): \(event), truth \(truth)")
            #expect(event["inputs"] as? [Int] == [truth[second], 0], "\(event)")
        }
    }
}
