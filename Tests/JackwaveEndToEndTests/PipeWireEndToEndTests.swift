import Foundation
import JackwaveTestSupport
import Testing

/// What PipeWire does that jackd's dummy backend cannot, against a private headless
/// PipeWire (no device, no session manager): change its quantum or its rate mid-take,
/// announce ports late, have no physical port at all; and `scripts/demo` on it.
///
/// Everything jackd and PipeWire share runs on both from the other suites (over
/// `ServerKind.allCases`): sample-exact recording, the own tone, the silence warning, the
/// default connection, and PipeWire's death (`RecordEndToEndTests.serverDeath`: PipeWire
/// killed mid-take, though its libjack never reports it), and so on.
@Suite("PipeWire as the JACK server", .serialized)
struct PipeWireEndToEndTests {
    let server: PipeWireServer
    let dir = temporaryDirectory()

    init() throws { server = try ServerKind.startPipeWire() }

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
        server.expectPattern(rec, stderr: out.stderr, source: source)
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
        server.expectPattern(rec, stderr: out.stderr, source: source, upTo: before)
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
        server.expectPattern(try Recording(path), stderr: run.stderr, source: source)
    }

    @Test("with no physical port (no device), the default connection leaves the inputs unconnected and says so")
    func noPhysicalPorts() throws {
        // A bare headless PipeWire, as a desktop without a session manager has it; the
        // fixture's usual one has jackd-like physical ports (RecordEndToEndTests.defaultConnection).
        let bare = try ServerKind.pipewire.start(capturePorts: 0, playbackPorts: 0)
        let path = dir + "/nothing.wav"
        let run = try Run.jackwave(["--record", path, "-d", "0.25", "--no-meter"], server: bare.name)
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
        ServerKind.xruns(in: stderr)
    }
}
