import Foundation
import Testing

/// jackwave on PipeWire's JACK, what most Linux desktops run, against a private headless
/// PipeWire (no device, no session manager), and what PipeWire does that jackd's dummy
/// backend cannot: change its quantum or its rate mid-take.
@Suite("PipeWire as the JACK server", .serialized)
struct PipeWireEndToEndTests {
    let server: PipeWireServer
    let dir = temporaryDirectory()

    init() throws { server = try PipeWireServer(rate: 48000, quantum: 256) }

    @Test("another client's audio is recorded sample-exact, channel order included")
    func sampleExact() throws {
        let source = try server.startTestSource(channels: 3)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/exact.wav"
        let run = try Run.jackwave(["--record", path, "-p", "src:out_*", "--duration", "2", "--no-meter"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let rec = try Recording(path)
        #expect(rec.channels == 3)
        #expect(rec.frames == 96000)
        Self.expectPattern(rec, stderr: run.stderr, source: source)
    }

    @Test("jackwave's own tone is recorded from frame 0, not the silence PipeWire gives a self-connection")
    func ownTone() throws {
        try ToneEndToEndTests.expectOwnToneRecorded(server: server.name, path: dir + "/loop.wav")
    }

    @Test("an input connected to a silent client is named in the summary as having received only silence")
    func silenceWarning() throws {
        let path = dir + "/quiet.wav"
        // A tone at volume 0 plays exact zeros: connected, and silent.
        let run = try Run.jackwave(["--tone", "440", "--volume", "0", "--record", path, "--port", "jackwave:out_1",
                                    "--channels", "1", "--duration", "0.5", "--no-meter"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("in_1: connected to jackwave:out_1, received only silence"), "\(run.stderr)")
    }

    /// Only 256 and 1024: going down to 128 or 64 frames, PipeWire 0.3.65 itself skips and
    /// zeroes some source frames (jack_capture, recording beside jackwave, sees the same
    /// kind of breaks), so the pattern cannot tell jackwave's losses from the server's there.
    @Test("a quantum change mid-take, 256 to 1024 frames and back, loses and repeats no frame")
    func quantumChange() throws {
        let path = dir + "/quantum.wav"
        let (source, run) = try recordTestSource(to: path)
        defer { source.signal(SIGTERM); _ = source.finish() }
        // Each change comes once half a second more is on disk.
        #expect(server.setting("clock.force-quantum", "1024"))
        #expect(run.waitForRecordedFrames(path, moreThan: 72000), "\(run.stderrSoFar)")
        #expect(server.setting("clock.force-quantum", "256"))
        #expect(run.waitForRecordedFrames(path, moreThan: 120_000), "\(run.stderrSoFar)")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains(", 0 dropped frames"), "\(out.stderr)")
        let rec = try Recording(path)
        #expect(rec.frames > 120_000)
        Self.expectPattern(rec, stderr: out.stderr, source: source)
    }

    @Test("a sample-rate change mid-take stops jackwave with exit 1, a valid file and a line saying what happened")
    func rateChange() throws {
        let path = dir + "/rate.wav"
        let (source, run) = try recordTestSource(to: path)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let before = Recording.framesSoFar(path)
        #expect(server.setting("clock.force-rate", "44100"))
        let out = run.finish(timeout: 30)
        #expect(out.status == 1, "\(out.stderr)")
        #expect(out.stderr.contains("sample rate changed from 48000 Hz to 44100 Hz"), "\(out.stderr)")
        let rec = try Recording(path)
        #expect(rec.sampleRate == 48000)
        #expect(rec.frames > 24000)
        // Everything on disk before the change is there, in order. What came between the
        // change and its notice may be broken by the server's own switch (it is in the file,
        // as received).
        Self.expectPattern(rec, stderr: out.stderr, source: source, upTo: before)
    }

    @Test("PipeWire killed mid-take: a valid file holding what arrived, and exit 1 within a second")
    func serverDeath() throws {
        let source = try server.startTestSource(channels: 1)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/orphan.wav"
        let run = try Run.start(Run.jackwave, ["--record", path, "-p", "src:out_1", "--no-meter"], server: server.name)
        #expect(run.waitForStderr("connected"), "\(run.stderrSoFar)")
        #expect(run.waitForRecordedFrames(path, moreThan: 24000), "\(run.stderrSoFar)")
        server.crash()   // returns once PipeWire is gone (reaped)
        let killedAt = Date()
        let noticed = run.waitForStderr("the JACK server went away", timeout: 10)
        let noticedAfter = Date().timeIntervalSince(killedAt)
        let out = run.finish(timeout: 30)
        #expect(noticed, "\(out.stderr)")
        #expect(noticedAfter < 1, "the server's death must be reported within a second, took \(noticedAfter) s")
        #expect(out.status == 1, "\(out.stderr)")
        let rec = try Recording(path)
        #expect(rec.frames > 24000)
        Self.expectPattern(rec, stderr: out.stderr, source: source)
    }

    @Test("ports that appear a moment after a client starts are found by a glob")
    func lateClientByGlob() throws {
        // PipeWire announces a client's ports after `jack_activate` returns; the test source
        // says "ready" only once jack_lsp-visible, and jackwave resolves the glob then.
        let source = try server.startTestSource(channels: 2, name: "late-src")
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/glob.wav"
        let run = try Run.jackwave(["--record", path, "-p", "late-src:out_*", "-d", "0.5", "--no-meter"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("connected late-src:out_1 -> jackwave:in_1"), "\(run.stderr)")
        #expect(run.stderr.contains("connected late-src:out_2 -> jackwave:in_2"), "\(run.stderr)")
        Self.expectPattern(try Recording(path), stderr: run.stderr, source: source)
    }

    @Test("with no physical port (no device), the default connection leaves the inputs unconnected and says so")
    func noPhysicalPorts() throws {
        let path = dir + "/nothing.wav"
        let run = try Run.jackwave(["--record", path, "-d", "0.25", "--no-meter"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("in_1 is not connected"), "\(run.stderr)")
        #expect(try Recording(path).frames == 12000)
    }

    @Test("scripts/demo's steps find PipeWire through pw-jack and record a real 440 Hz tone on it")
    func demo() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let out = dir + "/demo"
        // As on a desktop running PipeWire and no jackd: only PipeWire's socket to find.
        // The binary under test, not a fresh build: this test runs inside one.
        let run = try Run.tool("/bin/bash", [root + "/scripts/demo", out], server: nil, timeout: 120,
                               environment: ["XDG_RUNTIME_DIR": server.runtimeDirectory, "JACKWAVE_BINARY": Run.jackwave])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("demo: using PipeWire's JACK (pw-jack)"), "\(run.stdout)")
        let rec = try Recording(out + "/demo.wav")
        #expect(rec.frames == 144_000)
        #expect((rec.samples.map(abs).max() ?? 0) > 0.099, "the tone's peak, not silence")
        // 440 Hz: 440 × 3 upward zero crossings, give or take the first and last.
        let crossings = zip(rec.samples, rec.samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(crossings - 1320) <= 1, "\(crossings) upward zero crossings in 3 s")
    }

    /// Starts the two-channel test source and a recording of it to `path` until stopped, and
    /// waits until half a second of it is on disk.
    func recordTestSource(to path: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (source: Run.Running, run: Run.Running) {
        let source = try server.startTestSource(channels: 2)
        let run = try Run.start(Run.jackwave, ["--record", path, "-p", "src:out_*", "--no-meter"], server: server.name)
        #expect(run.waitForStderr("connected src:out_2"), "\(run.stderrSoFar)", sourceLocation: sourceLocation)
        #expect(run.waitForRecordedFrames(path, moreThan: 24000), "\(run.stderrSoFar)", sourceLocation: sourceLocation)
        return (source, run)
    }

    /// The xruns the summary line reports.
    static func xruns(in stderr: String) -> Int? {
        stderr.firstMatch(of: #/, (\d+) xruns/#).flatMap { Int($0.1) }
    }

    /// The pattern from frame 0 to the end (to `before` for `upTo`), unless the server broke
    /// it itself. PipeWire under load skips a late client's cycle instead of waiting for it:
    /// the source's (it then says "skipped" on stdout) or jackwave's (it says "the server
    /// skipped"); either breaks the pattern at the server, and both say so. The pattern is
    /// checked frame by frame for every run in which neither did and no xrun was reported.
    static func expectPattern(_ rec: Recording, stderr: String, source: Run.Running, upTo before: Int? = nil,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        guard xruns(in: stderr) == 0, !stderr.contains("the server skipped"),
              !source.stdoutSoFar.contains("skipped") else { return }
        let mismatch = TestPattern.firstMismatch(in: rec, from: 0)?.frame ?? rec.frames
        #expect(mismatch >= (before ?? rec.frames), "first mismatch at frame \(mismatch): \(stderr)",
                sourceLocation: sourceLocation)
    }
}
