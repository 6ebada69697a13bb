import Foundation
import JackwaveTestSupport
import Testing

/// Faults injected for real: a killed recorder, a stalled writer, a file size limit, a full
/// filesystem, a period change. Each leaves a file libsndfile reads, holding what arrived.
/// Each on both servers, jackd and PipeWire, but the period change (see there).
@Suite("Recordings survive faults", .serialized)
struct FaultEndToEndTests {
    let dir = temporaryDirectory()

    @Test("a recorder killed with SIGKILL leaves a file holding all but the last half second", arguments: ServerKind.allCases)
    func sigkill(on kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/killed.wav"
        // The level rows on stdout count the frames that arrived, as they arrive: the
        // measure of what the file should hold, where wall time would overstate it (a
        // loaded server loses time at each xrun, and delivers fewer frames than seconds).
        let run = try Run.start(Run.jackwave, ["--record", path, "-p", "src:out_*", "--levels", "-"], server: server.name)
        #expect(run.waitForStderr("connected src:out_2"))
        #expect(waitUntil { Self.arrivedFrames(levels: run.stdoutSoFar) >= 3 * 48000 || !run.isRunning },
                "\(run.stderrSoFar)")
        run.signal(SIGKILL)
        let out = run.finish()
        let arrived = Self.arrivedFrames(levels: out.stdout)
        let rec = try Recording(path)
        #expect(rec.channels == 2)
        // The writer keeps what a reader cannot see within 0.5 s (RecordingWriter.crashBound).
        // Allow as much again for a loaded 2-core machine's scheduling; a header refreshed
        // only at the end would show no frames at all.
        #expect(rec.frames >= arrived - 48000, "\(rec.frames) frames of \(arrived) arrived")
        // Killed: no summary line, so on PipeWire only the source can say it was skipped.
        server.expectPattern(rec, stderr: out.stderr, source: source)
    }

    @Test("a stalled writer drops whole frames, writes silence in their place and reports them", arguments: ServerKind.allCases)
    func stalledWriter(on kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/stalled.wav"
        // A 0.05 s ring and a writer that sleeps 0.3 s per pass must overflow.
        let run = try Run.jackwave(["--record", path, "-p", "src:out_*", "-d", "2", "--buffer", "0.05"],
                                   server: server.name, environment: ["JACKWAVE_TEST_WRITER_STALL_US": "300000"])
        #expect(run.status == 0, "\(run.stderr)")
        let rec = try Recording(path)
        #expect(rec.frames == 96000)  // the timeline stays true to wall time
        let summary = run.stderr.split(separator: "\n").first { $0.contains("recorded ") } ?? ""
        let dropped = Int(summary.split(separator: ",").first { $0.hasSuffix("dropped frames") }?
            .split(separator: " ").first ?? "") ?? -1
        #expect(dropped > 0, "\(run.stderr)")
        #expect(run.stderr.contains("frames dropped at "))
        // Every frame is either the pattern at its true position or a whole frame of silence,
        // and the silent frames are exactly the dropped ones; unless PipeWire skipped a
        // cycle and said so (`ServerBreaks`), which moves the pattern at the server.
        if server.brokeStream(stderr: run.stderr, source: source) { return }
        try #require(rec.frames > 0 && rec.channels >= 2, "\(rec.frames) frames of \(rec.channels) channels")
        let k0 = TestPattern.phase(of: rec[0, 0])
        var silent = 0
        for f in 0..<rec.frames {
            // The pattern never has both channels at 0 in one frame (their offset is 7919).
            if rec[f, 0] == 0 && rec[f, 1] == 0 {
                silent += 1
                continue
            }
            guard rec[f, 0] == TestPattern.value(frame: k0 + f, channel: 0),
                  rec[f, 1] == TestPattern.value(frame: k0 + f, channel: 1) else {
                Issue.record("frame \(f) is neither the pattern nor silence")
                return
            }
        }
        #expect(silent == dropped)
    }

    @Test("a second Ctrl-C skips the drain and still leaves a valid file", arguments: ServerKind.allCases)
    func secondInterrupt(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/abandoned.wav"
        let run = try Run.start(Run.jackwave, ["--record", path, "--buffer", "30", "--levels", "-"], server: server.name,
                                environment: ["JACKWAVE_TEST_WRITER_STALL_US": "400000"])
        #expect(run.waitForStderr("connected"))
        // A backlog that takes the drain seconds: 2 s more arrived (the level rows count
        // them) than is on disk, and the stalled writer drains at most 4096 frames per
        // 0.4-s pass.
        #expect(waitUntil { Self.arrivedFrames(levels: run.stdoutSoFar) - Recording.framesSoFar(path) >= 96000 || !run.isRunning },
                "\(run.stderrSoFar)")
        run.signal(SIGINT)
        // The second only once the first has been acted on: the run has deactivated its
        // client (its inputs are disconnected) and is draining.
        #expect(waitUntil { Self.inputsDisconnected(of: "jackwave", server: server.name) || !run.isRunning },
                "the first Ctrl-C was not acted on: \(run.stderrSoFar)")
        #expect(run.isRunning, "the drain ended before the second Ctrl-C: \(run.stderrSoFar)")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("stopping without draining"))
        _ = try Recording(path)
    }

    /// The frames a CSV level stream (`--levels -`, one row per block) says have arrived:
    /// the end of its last complete row's block (blocks are the server's period).
    static func arrivedFrames(levels csv: String) -> Int {
        let rows = csv.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .compactMap { Int($0.split(separator: ",").first ?? "") }
        guard let last = rows.last else { return 0 }
        return last + (rows.count > 1 ? last - rows[rows.count - 2] : 0)
    }

    /// Whether `client` has input ports and none of them is connected (`jack_lsp -c`).
    static func inputsDisconnected(of client: String, server: String) -> Bool {
        guard let run = try? Run.tool("/usr/bin/jack_lsp", ["-c", "\(client):in_"], server: server, timeout: 30),
              run.status == 0 else { return false }
        let lines = run.stdout.split(separator: "\n")
        return lines.contains { $0.hasPrefix("\(client):in_") } && !lines.contains { $0.hasPrefix(" ") || $0.hasPrefix("\t") }
    }

    /// A write error ends the run with exit 1 and exactly one error line naming the file,
    /// and the file keeps what fit (at least a quarter second).
    func expectStoppedByWriteError(_ run: Run.Output, path: String) throws {
        #expect(run.status == 1, "\(run.stderr)")
        let errors = run.stderr.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.count == 1, "\(run.stderr)")
        #expect(errors.first?.contains(path) == true)
        #expect(try Recording(path).frames > 12000)
    }

    @Test("a file size limit stops the recording with one message and exit 1, keeping what fit", arguments: ServerKind.allCases)
    func fileSizeLimit(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/limited.wav"
        // 200 kB: about 0.5 s of stereo float at 48 kHz.
        let run = try Run.tool("/usr/bin/prlimit", ["--fsize=200000", Run.jackwave, "--record", path, "-d", "5"],
                               server: server.name)
        try expectStoppedByWriteError(run, path: path)
    }

    @Test("a full filesystem stops the recording with one message and exit 1, keeping what fit", arguments: ServerKind.allCases)
    func diskFull(on kind: ServerKind) throws {
        let server = try kind.start()
        let mountPoint = dir + "/small"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mount = try Run.tool("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint], server: nil)
        try #require(mount.status == 0, "cannot mount a small tmpfs here: \(mount.stderr)")
        defer { _ = try? Run.tool("/bin/umount", [mountPoint], server: nil) }
        let path = mountPoint + "/full.wav"
        let run = try Run.jackwave(["--record", path, "-d", "5"], server: server.name)
        try expectStoppedByWriteError(run, path: path)
    }

    /// On jackd only: `jack_bufsize` down to 128 frames. PipeWire 0.3.65 itself breaks a
    /// source's stream below a 256-frame quantum, so its quantum change is
    /// `PipeWireEndToEndTests.quantumChange` (256 to 1024 and back, by `clock.force-quantum`).
    @Test("a period change during a recording loses and repeats no frame")
    func bufferSizeChange() throws {
        let server = try ServerKind.jackd.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/resized.wav"
        let run = try Run.start(Run.jackwave, ["--record", path, "-p", "src:out_*", "-d", "6"], server: server.name)
        #expect(run.waitForStderr("connected src:out_2"))
        // Each change comes once half a second more is on disk, and both before the end.
        #expect(run.waitForRecordedFrames(path, moreThan: 24000), "\(run.stderrSoFar)")
        #expect(try Run.tool("/usr/bin/jack_bufsize", ["128"], server: server.name).status == 0)
        #expect(run.waitForRecordedFrames(path, moreThan: Recording.framesSoFar(path) + 24000), "\(run.stderrSoFar)")
        #expect(try Run.tool("/usr/bin/jack_bufsize", ["1024"], server: server.name).status == 0)
        #expect(run.isRunning, "the recording ended before the second period change")
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        let rec = try Recording(path)
        #expect(rec.frames == 288000)
        #expect(TestPattern.firstMismatch(in: rec, from: 0) == nil)
    }
}
