import Foundation
import JackwaveTestSupport
import Testing

/// Running where nobody watches: no terminal, SIGTERM, `--events`, `--on-close`.
@Suite("Unattended: service mode, events and the close hook", .serialized)
struct UnattendedEndToEndTests {
    let server: any TestServer
    let dir = temporaryDirectory()

    init() throws { server = try ServerKind.jackd.start() }

    @Test("under setsid with stdin from /dev/null a take runs headless, and SIGTERM finalizes it with exit 0")
    func serviceModeStopsOnSigterm() throws {
        let source = try server.startTestSource(channels: 1)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/service.wav"
        // The test's spawn already gives stdin /dev/null; setsid takes away the controlling
        // terminal too, as a service manager does. setsid execs in place (the child is no
        // group leader), so the pid signalled is jackwave's.
        let headless = try Run.start("/usr/bin/setsid", [Run.jackwave, "--record", path, "-p", "src:out_1", "--tone", "440", "-t", "system:playback_1"],
                                     server: server.name)
        #expect(headless.waitForRecordedFrames(path, moreThan: 24000), "\(headless.stderrSoFar)")
        headless.signal(SIGTERM)
        let out = headless.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        // Headless: no meter, no status line, no terminal escapes, nothing asked.
        #expect(!out.stderr.contains("\u{1B}["), "\(out.stderr)")
        #expect(out.stderr.contains("jackwave: recorded \(path): "), "\(out.stderr)")
        let rec = try Recording(path)
        #expect(rec.frames > 24000)
        #expect(out.stderr.contains("\(rec.frames) frames"))
    }

    @Test("--events writes one JSON object per line: started, each piece opened and closed with its frames, stopped")
    func eventsForPieces() throws {
        let path = dir + "/pieces.wav"
        let events = dir + "/pieces.jsonl"
        let run = try Run.jackwave(["--record", path, "-c", "1", "--manual", "--split", "1", "-d", "2.5", "--events", events],
                                   server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try EventStream.read(events)
        // An xrun on a loaded machine is reported too, and is not part of the pieces' course.
        let kinds = EventStream.course(lines)
        #expect(kinds == ["started", "file_opened", "file_closed", "file_opened", "file_closed", "file_opened", "file_closed", "stopped"],
                "\(kinds)")
        let closed = lines.filter { $0["event"] as? String == "file_closed" }
        let names = closed.compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
        #expect(names == ["pieces-001.wav", "pieces-002.wav", "pieces-003.wav"])
        #expect(closed.compactMap { $0["frames"] as? Int } == [48000, 48000, 24000])
        #expect(closed.compactMap { $0["frame"] as? Int } == [48000, 96000, 120000])
        let opened = lines.filter { $0["event"] as? String == "file_opened" }.compactMap { $0["frame"] as? Int }
        #expect(opened == [0, 48000, 96000])
        for (i, piece) in names.enumerated() {
            #expect(try Recording(dir + "/" + piece).frames == [48000, 48000, 24000].element(at: i), "\(piece)")
        }
        #expect(lines.allSatisfy { ($0["time"] as? String)?.count ?? 0 >= 23 })
        #expect(lines.last?["exit_code"] as? Int == 0)
    }

    @Test("--events - writes the events on stdout")
    func eventsOnStdout() throws {
        let path = dir + "/stdout.wav"
        let run = try Run.jackwave(["--record", path, "-c", "1", "--manual", "-d", "0.2", "--events", "-"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let kinds = EventStream.course(try EventStream.parse(run.stdout))
        #expect(kinds == ["started", "file_opened", "file_closed", "stopped"], "\(run.stdout)")
    }

    @Test("--events reports connections made and broken while recording, with their ports")
    func eventsForConnections() throws {
        let source = try server.startTestSource(channels: 1)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/wired.wav"
        let events = dir + "/wired.jsonl"
        let run = try Run.start(Run.jackwave, ["--record", path, "--manual", "-c", "1", "-n", "evwired", "--print-start", "--events", events],
                                server: server.name)
        #expect(run.waitForStderr("first frame at"))
        #expect(try Run.tool("/usr/bin/jack_connect", ["src:out_1", "evwired:in_1"], server: server.name, timeout: 30).status == 0)
        #expect(run.waitForStderr("connected src:out_1 -> evwired:in_1"))
        #expect(try Run.tool("/usr/bin/jack_disconnect", ["src:out_1", "evwired:in_1"], server: server.name, timeout: 30).status == 0)
        #expect(run.waitForStderr("disconnected src:out_1 -> evwired:in_1"))
        run.signal(SIGINT)
        #expect(run.finish(timeout: 30).status == 0)
        let wires = try EventStream.read(events).filter { ["connected", "disconnected"].contains($0["event"] as? String) }
        #expect(wires.map { "\($0["event"] ?? "?") \($0["from"] ?? "?") \($0["to"] ?? "?")" }
                == ["connected src:out_1 evwired:in_1", "disconnected src:out_1 evwired:in_1"])
    }

    @Test("--on-close runs once per finalized piece, with its path, in order")
    func onClosePerPiece() throws {
        let path = dir + "/hooked.wav"
        let list = dir + "/closed.txt"
        let run = try Run.jackwave(["--record", path, "-c", "1", "--manual", "--split", "1", "-d", "2.5",
                                    "--on-close", "echo >> '\(list)'"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let closed = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(closed == ["hooked-001.wav", "hooked-002.wav", "hooked-003.wav"].map { dir + "/" + $0 })
    }

    @Test("a failing --on-close is reported, as an event too, and the recording goes on to exit 0")
    func onCloseFailureIsReported() throws {
        let path = dir + "/failing.wav"
        let events = dir + "/failing.jsonl"
        let run = try Run.jackwave(["--record", path, "-c", "1", "--manual", "--split", "1", "-d", "2.5",
                                    "--on-close", "exit 3 #", "--events", events], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "exited with status 3").count - 1 == 3, "\(run.stderr)")
        #expect(try Recording(dir + "/failing-003.wav").frames == 24000)
        let failed = try EventStream.read(events).filter { $0["event"] as? String == "on_close_failed" }
        #expect(failed.count == 3)
    }

    @Test("bad unattended options exit 2 with one line and create no file",
          arguments: [["--on-close", "true"], ["--record", "OUT.wav", "--events", "-", "--levels", "-"],
                      ["--record", "OUT.wav", "--events", "OUT.wav"], ["--events", "/nonexistent-dir/e.jsonl"]])
    func refused(arguments: [String]) throws {
        let caseDir = dir + "/\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: caseDir, withIntermediateDirectories: true)
        let run = try Run.jackwave(arguments.map { $0.hasPrefix("OUT") ? caseDir + "/" + $0 : $0 }, server: server.name)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: caseDir).isEmpty)
    }
    @Test("--arguments refuses a file that group or others can write, or another user owns: exit 2, one line, no file")
    func argumentsFileMustBeTrusted() throws {
        let path = dir + "/open.wav"
        for (mode, owner) in [(0o666, 0 as uid_t), (0o620, 0), (0o600, 65534 as uid_t)] {
            let args = dir + "/service-\(String(mode, radix: 8))-\(owner).args"
            try "--record\n\(path)\n--on-close\ntouch \(dir)/hooked\n".write(toFile: args, atomically: false, encoding: .utf8)
            #expect(chmod(args, mode_t(mode)) == 0 && chown(args, owner, 0) == 0)
            let out = try Run.jackwave(["--arguments", args, "-d", "1"], server: server.name)
            #expect(out.status == 2, "mode \(String(mode, radix: 8)), owner \(owner): \(out.stderr)")
            #expect(out.stderr == "jackwave: error: --arguments \(args): owned by another user, or writable by group or others; it can name commands, so it must be this user's or root's alone (chmod go-w)\n")
        }
        #expect(!FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: dir + "/hooked"))
    }

    @Test("--arguments skips a UTF-8 byte-order mark, blank lines and indented # comments")
    func argumentsFileAsEditorsWriteIt() throws {
        let path = dir + "/edited.wav", args = dir + "/edited.args"
        let text = "\u{FEFF}--record\n\(path)\n   \n  # two inputs, silent\n\t# and a second\n-c\n2\n--manual\n-d\n0.5\n"
        try text.write(toFile: args, atomically: false, encoding: .utf8)
        #expect(chmod(args, 0o600) == 0)
        let out = try Run.jackwave(["--arguments", args], server: server.name)
        #expect(out.status == 0, "\(out.stderr)")
        let rec = try Recording(path)
        #expect(rec.channels == 2 && rec.frames == 24000, "\(rec.channels) channels, \(rec.frames) frames")
    }
}
