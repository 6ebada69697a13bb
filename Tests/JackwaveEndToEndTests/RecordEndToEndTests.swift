import Foundation
import JackwaveTestSupport
import Testing

/// `jackwave --record` against real servers, `jackd -d dummy` and PipeWire (each test on
/// both, a server of its own), checked with libsndfile afterwards.
@Suite("Recording through a real JACK server", .serialized)
struct RecordEndToEndTests {
    let dir = temporaryDirectory()

    @Test("a recording is a sample-exact copy of what arrived, channel order included", arguments: ServerKind.allCases)
    func sampleExact(on kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 3)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/exact.wav"
        let run = try Run.jackwave(["--record", path, "-p", "src:out_*", "--duration", "2"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let rec = try Recording(path)
        #expect(rec.channels == 3)
        #expect(rec.frames == 96000)
        // Frame by frame, unless PipeWire skipped a cycle and said so (`ServerBreaks`).
        server.expectPattern(rec, stderr: run.stderr, source: source)
    }

    @Test("ports given one by one are recorded in the order given", arguments: ServerKind.allCases)
    func portOrder(on kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/order.wav"
        let run = try Run.jackwave(["--record", path, "-p", "src:out_2", "-p", "src:out_1", "-d", "0.5"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let rec = try Recording(path)
        // in_1 holds out_2: its value is out_1's shifted by 7919 frames of the pattern.
        let k = TestPattern.phase(of: try #require(rec.sample(frame: 100, channel: 1), "\(rec.frames) frames of \(rec.channels) channels"))
        #expect(rec.sample(frame: 100, channel: 0) == TestPattern.value(frame: k, channel: 1))
    }

    @Test("--duration records exactly round(seconds × rate) frames", arguments: ServerKind.allCases)
    func exactDuration(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/duration.wav"
        let run = try Run.jackwave(["--record", path, "--duration", "1.23456", "-c", "1"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Recording(path).frames == 59259)  // 1.23456 × 48000 = 59258.88
    }

    @Test("the summary line states file, seconds, frames, channels, xruns, drops and dropouts", arguments: ServerKind.allCases)
    func summaryLine(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/summary.wav"
        let run = try Run.jackwave(["--record", path, "--duration", "0.5"], server: server.name)
        #expect(run.status == 0)
        // The xrun count is the server's to decide: a dummy server on a loaded 2-core machine
        // may report one during a run, so only its form is fixed here. Frames and drops are
        // jackwave's own and must be exact.
        let line = run.stderr.split(separator: "\n").first { $0.hasPrefix("jackwave: recorded ") }.map(String.init) ?? ""
        let pattern = #/jackwave: recorded (.+): 0\.500 s, 24000 frames, 2 channels, \d+ xruns, 0 dropped frames, 0 dropouts/#
        let match = line.wholeMatch(of: pattern)
        #expect(match?.1 == path[...], "\(run.stderr)")
    }

    @Test("Ctrl-C finalizes the file and exits 0", arguments: ServerKind.allCases)
    func interruptFinalizes(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/interrupted.wav"
        let run = try Run.start(Run.jackwave, ["--record", path], server: server.name)
        #expect(run.waitForStderr("connected"))
        #expect(run.waitForRecordedFrames(path, moreThan: 24000), "\(run.stderrSoFar)")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        let rec = try Recording(path)
        #expect(rec.frames > 24000)
        #expect(out.stderr.contains("jackwave: recorded \(path): "))
        #expect(out.stderr.contains("\(rec.frames) frames"))
    }

    @Test("SIGTERM stops like Ctrl-C", arguments: ServerKind.allCases)
    func terminateFinalizes(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/terminated.wav"
        let run = try Run.start(Run.jackwave, ["--record", path, "--manual", "--print-start"], server: server.name)
        // "first frame at" is printed before frame 0 arrives: wait for frames on disk.
        #expect(run.waitForStderr("first frame at"))
        #expect(run.waitForRecordedFrames(path, moreThan: 0), "\(run.stderrSoFar)")
        run.signal(SIGTERM)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try Recording(path).frames > 0)
    }

    @Test("a server that dies mid-recording is reported within a second and leaves a valid file and exit code 1",
          arguments: ServerKind.allCases)
    func serverDeath(on kind: ServerKind) throws {
        // A server of its own, as the test kills it (PipeWire with SIGKILL too: its libjack
        // never calls the shutdown callback, and jackwave must notice by itself).
        let own = try kind.start()
        let source = try own.startTestSource(channels: 1)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/orphan.wav"
        let run = try Run.start(Run.jackwave, ["--record", path, "-p", "src:out_1", "--no-meter"], server: own.name)
        #expect(run.waitForStderr("connected"), "\(run.stderrSoFar)")
        #expect(run.waitForRecordedFrames(path, moreThan: 24000), "\(run.stderrSoFar)")
        own.crash()   // returns once the server is gone (reaped)
        let killedAt = Date()
        defer { own.cleanUpAfterCrash() }
        // jackwave says so within one 20 ms main-loop tick of JACK's shutdown notification
        // (on PipeWire: of seeing the cycles stop and no server listening); finalizing the
        // file and exiting may take longer on a loaded machine.
        let noticed = run.waitForStderr(kind.deathNotice, timeout: 10)
        let noticedAfter = Date().timeIntervalSince(killedAt)
        let out = run.finish(timeout: 30)
        let exitedAfter = Date().timeIntervalSince(killedAt)
        #expect(noticed, "\(out.stderr)")
        #expect(noticedAfter < 1, "the server's death must be reported within a second, took \(noticedAfter) s")
        #expect(exitedAfter < 3, "the run must end within 3 s of the server's death, took \(exitedAfter) s")
        #expect(out.status == 1, "\(out.stderr)")
        let rec = try Recording(path)
        #expect(rec.frames > 24000)
        own.expectPattern(rec, stderr: out.stderr, source: source)
    }

    @Test("with no port given, the inputs are connected to the server's physical capture ports, and record them",
          arguments: ServerKind.allCases)
    func defaultConnection(on kind: ServerKind) throws {
        // jackd's dummy capture ports and PipeWire's (`PhysicalPortsClient`) both give silence.
        let server = try kind.start()
        let path = dir + "/default.wav"
        let run = try Run.jackwave(["--record", path, "-d", "0.5", "--no-meter"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("connected system:capture_1 -> jackwave:in_1"), "\(run.stderr)")
        #expect(run.stderr.contains("connected system:capture_2 -> jackwave:in_2"), "\(run.stderr)")
        #expect(!run.stderr.contains("not connected"), "\(run.stderr)")
        let rec = try Recording(path)
        #expect(rec.channels == 2 && rec.frames == 24000)
        #expect(run.stderr.contains("in_1: connected to system:capture_1, received only silence"), "\(run.stderr)")
    }

    @Test("an input connected to a silent client is named in the summary as having received only silence",
          arguments: ServerKind.allCases)
    func silenceWarning(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/quiet.wav"
        // A tone at volume 0 plays exact zeros: connected, and silent.
        let run = try Run.jackwave(["--tone", "440", "--volume", "0", "--record", path, "--port", "jackwave:out_1",
                                    "--channels", "1", "--duration", "0.5", "--no-meter"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("in_1: connected to jackwave:out_1, received only silence"), "\(run.stderr)")
    }

    @Test("connections made while recording are reported as they happen", arguments: ServerKind.allCases)
    func connectionsReported(on kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 1)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/manual.wav"
        let run = try Run.start(Run.jackwave, ["--record", path, "--manual", "-c", "1", "-n", "wired", "--print-start"],
                                server: server.name)
        #expect(run.waitForStderr("first frame at"))
        #expect(try Run.tool("/usr/bin/jack_connect", ["src:out_1", "wired:in_1"], server: server.name, timeout: 30).status == 0)
        #expect(run.waitForStderr("connected src:out_1 -> wired:in_1"))
        #expect(try Run.tool("/usr/bin/jack_disconnect", ["src:out_1", "wired:in_1"], server: server.name, timeout: 30).status == 0)
        #expect(run.waitForStderr("disconnected src:out_1 -> wired:in_1"))
        run.signal(SIGINT)
        #expect(run.finish(timeout: 30).status == 0)
    }

    @Test("the process and writer threads carry names that top -H shows", arguments: ServerKind.allCases)
    func threadNames(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/named.wav"
        let run = try Run.start(Run.jackwave, ["--record", path, "-c", "1", "--manual", "--print-start"], server: server.name)
        #expect(run.waitForStderr("first frame at"))
        // The writer names itself once its thread runs, which a loaded machine may delay
        // past "first frame at": wait for both names, with a bound.
        var names: Set<String> = []
        _ = waitUntil {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(run.pid)/task")) ?? []
            names = Set(tasks.compactMap { try? String(contentsOfFile: "/proc/\(run.pid)/task/\($0)/comm", encoding: .utf8) }
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
            return (names.contains("jackwave-rt") && names.contains("jackwave-writer")) || !run.isRunning
        }
        run.signal(SIGINT)
        #expect(run.finish(timeout: 30).status == 0)
        #expect(names.contains("jackwave-rt"), "\(names)")
        #expect(names.contains("jackwave-writer"), "\(names)")
    }

    @Test("an existing file is refused without --force and left untouched", arguments: ServerKind.allCases)
    func existingFileRefused(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/existing.wav"
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: path))
        let run = try Run.jackwave(["--record", path, "-d", "0.1"], server: server.name)
        #expect(run.status == 2)
        #expect(run.stderr.contains("exists"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not audio")
    }

    @Test("--force overwrites an existing file", arguments: ServerKind.allCases)
    func forceOverwrites(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/forced.wav"
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: path))
        let run = try Run.jackwave(["--record", path, "-d", "0.1", "--force"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Recording(path).frames == 4800)
    }

    @Test("an unknown port pattern exits 2, lists the ports that exist and creates no file", arguments: ServerKind.allCases)
    func unknownPort(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/noport.wav"
        let run = try Run.jackwave(["--record", path, "-p", "nosuch:*"], server: server.name)
        #expect(run.status == 2)
        #expect(run.stderr.contains("no source port matches 'nosuch:*'"))
        #expect(run.stderr.contains("system:capture_1"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("two instances at once get distinct client names and both record", arguments: ServerKind.allCases)
    func twoInstances(on kind: ServerKind) throws {
        let server = try kind.start()
        let a = try Run.start(Run.jackwave, ["--record", dir + "/a.wav", "-d", "1"], server: server.name)
        let b = try Run.start(Run.jackwave, ["--record", dir + "/b.wav", "-d", "1"], server: server.name)
        #expect(a.finish(timeout: 60).status == 0)
        #expect(b.finish(timeout: 60).status == 0)
        #expect(try Recording(dir + "/a.wav").frames == 48000)
        #expect(try Recording(dir + "/b.wav").frames == 48000)
    }

    /// On jackd only: the format is the writer's alone, and the server's part (feeding
    /// frames) is checked on both by `sampleExact`.
    @Test("every supported format records and reads back", arguments: ["wav", "flac", "w64", "rf64", "caf", "aiff", "ogg"])
    func formats(ext: String) throws {
        let server = try ServerKind.jackd.start()
        let path = dir + "/format.\(ext)"
        let run = try Run.jackwave(["--record", path, "-d", "0.25", "-c", "1"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Recording(path).frames == 12000)
    }
}

/// Runs that fail before or without a server.
@Suite("Refusals that need no server")
struct RefusalEndToEndTests {
    @Test("no running server is one clear error line with exit code 1, and jackwave starts none")
    func noServer() throws {
        let dir = temporaryDirectory()
        let name = "jw-no-such-server-\(getpid())"
        // Without JACK_NO_START_SERVER: jackwave itself must not let libjack start a server.
        let run = try Run.jackwave(["--record", dir + "/x.wav", "-d", "0.1"], server: name, autostartGuard: false)
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast(run.stderr.hasSuffix("\n") ? 1 : 0)
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(lines.first?.hasPrefix("jackwave: error: ") == true, "\(run.stderr)")
        #expect(run.stderr.contains("is it running?"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.wav"))
        #expect(try Run.tool("/usr/bin/jack_lsp", [], server: name).status != 0, "a server '\(name)' is running")
    }

    @Test("--help prints usage on stdout and exits 0")
    func help() throws {
        let run = try Run.jackwave(["--help"], server: nil)
        #expect(run.status == 0)
        #expect(run.stdout.contains("--record FILE"))
    }

    @Test("--version prints the version and exits 0, and says libshout (--stream's) is there without loading it")
    func version() throws {
        let run = try Run.jackwave(["--version"], server: nil)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("jackwave "))
        #expect(run.stdout.contains("\nlibshout (installed; loaded by --stream)\n"), "\(run.stdout)")
    }
}
