import Foundation
import JackwaveTestSupport
import Testing

/// The station logger's parts that run end to end today: compressed archives that survive
/// SIGKILL, and a live stream to a real Icecast that survives Icecast's restart while the
/// archive stays whole. On `jackd -d dummy` only: the server's part is to feed frames, which
/// every other suite tests on both servers; what is tested here is the writer's and the
/// streamer's (as FilesEndToEndTests does for lossy files).
@Suite("Station logger: compressed archives and the live stream", .serialized)
struct StationEndToEndTests {
    let dir = temporaryDirectory()

    /// How long each format records before the kill, and how much of its end it may lose, in
    /// seconds: the writer's pass (0.1-0.2 s, still in the ring) and what the codec holds:
    /// LAME's last frames, one 200-ms Opus page, one Ogg Vorbis page (libsndfile pages Vorbis
    /// by size: 4 KB or 255 packets, which for a pure tone, ~15 kbit/s, is 2.2 s). Measured
    /// at rest (docs/station-logger.md): MP3 0.11-0.27 s, Opus 0.19-0.38 s, Vorbis (tone)
    /// 0.8-2.2 s; the bounds leave room for a loaded machine.
    static let killPlan = ["mp3": (record: 2.0, bound: 1.0), "opus": (record: 2.0, bound: 1.0), "ogg": (record: 4.0, bound: 3.0)]

    @Test("an MP3, Ogg Vorbis or Opus recording killed with SIGKILL decodes (ffmpeg) to the tone, all but its last moments",
          arguments: ["mp3", "ogg", "opus"])
    func killedLossyFile(ext: String) throws {
        let server = try ServerKind.jackd.start()
        let path = dir + "/killed.\(ext)"
        let plan = try #require(Self.killPlan[ext])
        let run = try Run.start(Run.jackwave, ["--record", path, "--tone", "1000", "-p", "jackwave:out_1", "-c", "1",
                                               "--outputs", "1", "--levels", "-"], server: server.name)
        // The level rows count the frames that arrived (as FaultEndToEndTests does).
        #expect(waitUntil { FaultEndToEndTests.arrivedFrames(levels: run.stdoutSoFar) >= Int(plan.record * 48000) || !run.isRunning },
                "\(run.stderrSoFar)")
        run.signal(SIGKILL)
        let out = run.finish()
        let arrived = FaultEndToEndTests.arrivedFrames(levels: out.stdout)
        let decoded = try Self.decode(path)
        #expect(decoded.count >= arrived - Int(plan.bound * 48000), "\(decoded.count) of \(arrived) frames decode")
        #expect(decoded.count <= arrived + 4608, "\(decoded.count) frames decode, \(arrived) arrived")
        // What decodes is the tone, to its last half second.
        let last = Array(decoded.suffix(24000))
        let f = try #require(Signal.frequency(last, rate: 48000))
        #expect(abs(f - 1000) < 2, "\(f) Hz")
    }

    @Test("the stream reaches Icecast and decodes to the tone; Icecast restarted, it comes back, and the archive has no gap")
    func streamSurvivesIcecastRestart() throws {
        let server = try ServerKind.jackd.start()
        let source = try server.startTestSource(channels: 1)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let icecast = try IcecastServer()
        let archive = dir + "/archive.flac"
        let events = dir + "/stream.jsonl"
        // in_1: jackwave's own 1 kHz tone (what a listener checks), in_2: the test pattern
        // (what the archive's continuity is checked by).
        let run = try Run.start(Run.jackwave, ["--record", archive, "--tone", "1000", "-p", "jackwave:out_1", "-p", "src:out_1",
                                               "-c", "2", "--outputs", "1", "--bits", "24", "--no-dither", "--events", events,
                                               "--stream", "icecast://source@127.0.0.1:\(icecast.port)/live.ogg"],
                                server: server.name, environment: ["JACKWAVE_STREAM_PASSWORD": icecast.sourcePassword])
        defer { if run.isRunning { run.signal(SIGKILL) } }
        #expect(run.waitForStderr("stream: connected to icecast://source@127.0.0.1:\(icecast.port)/live.ogg (libshout 2."), "\(run.stderrSoFar)")
        try Self.expectTone(try icecast.listen("/live.ogg", seconds: 1.5))

        icecast.stop()
        #expect(run.waitForStderr("stream: lost icecast://"), "\(run.stderrSoFar)")
        try icecast.start()
        #expect(run.waitForStderr("stream: connected again to icecast://"), "\(run.stderrSoFar)")
        try Self.expectTone(try icecast.listen("/live.ogg", seconds: 1.5))

        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("streamed in 2 connections"), "\(out.stderr)")
        #expect(out.stderr.contains(", 0 frames dropped"), "\(out.stderr)")
        // The archive: every frame of the pattern, none missing or doubled across the restart.
        let rec = try Recording(archive)
        #expect(rec.frames > 4 * 48000)
        try #require(rec.frames > 0 && rec.channels >= 2, "\(rec.frames) frames of \(rec.channels) channels")
        let k0 = TestPattern.phase(of: rec[0, 1])
        let mismatch = (0..<rec.frames).first { rec[$0, 1] != TestPattern.value(frame: k0 + $0, channel: 0) }
        #expect(mismatch == nil, "the pattern breaks at frame \(mismatch ?? -1)")
        let kinds = try EventStream.read(events).compactMap { $0["event"] as? String }.filter { $0.hasPrefix("stream_") }
        #expect(kinds.first == "stream_connected" && kinds.contains("stream_lost") && kinds.last == "stream_connected", "\(kinds)")
    }

    @Test("icecasts:// with --stream-ca logs in over TLS, on a port that speaks nothing else, and a listener hears the tone")
    func streamOverTLS() throws {
        let server = try ServerKind.jackd.start()
        let icecast = try IcecastServer(tls: true)
        let tlsPort = try #require(icecast.tlsPort), certificate = try #require(icecast.certificate)
        let url = "icecasts://source@127.0.0.1:\(tlsPort)/tls.ogg"
        let run = try Run.start(Run.jackwave, ["--record", dir + "/tls.flac", "--tone", "1000", "-p", "jackwave:out_1", "-c", "1",
                                               "--outputs", "1", "--stream", url, "--stream-ca", certificate],
                                server: server.name, environment: ["JACKWAVE_STREAM_PASSWORD": icecast.sourcePassword])
        defer { if run.isRunning { run.signal(SIGKILL) } }
        #expect(run.waitForStderr("stream: connected to \(url)"), "\(run.stderrSoFar)")
        // Heard on the plain port: the source reached Icecast through the TLS one.
        try Self.expectTone(try icecast.listen("/tls.ogg", seconds: 1.5))
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!out.stderr.contains("in clear"), "\(out.stderr)")
    }

    @Test("icecasts:// to a server whose certificate is not trusted never logs in, says why, and the recording goes on")
    func untrustedCertificate() throws {
        let server = try ServerKind.jackd.start()
        let icecast = try IcecastServer(tls: true)
        let tlsPort = try #require(icecast.tlsPort)
        let archive = dir + "/untrusted.wav"
        // Without --stream-ca: the system's authorities, which never signed this certificate.
        let out = try Run.jackwave(["--record", archive, "--tone", "1000", "-p", "jackwave:out_1", "-c", "1", "--outputs", "1",
                                    "-d", "2", "--stream", "icecasts://source@127.0.0.1:\(tlsPort)/tls.ogg"],
                                   server: server.name, environment: ["JACKWAVE_STREAM_PASSWORD": icecast.sourcePassword])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("the server's certificate is not trusted"), "\(out.stderr)")
        #expect(!out.stderr.contains("stream: connected"), "\(out.stderr)")
        #expect(try Recording(archive).frames == 2 * 48000)
    }

    @Test("an Opus or MP3 stream (at a set bit rate) decodes to the tone a listener hears", arguments: [("opus", "96k"), ("mp3", "128k")])
    func otherCodecs(ext: String, rate: String) throws {
        let server = try ServerKind.jackd.start()
        let icecast = try IcecastServer()
        let mount = "/live.\(ext)"
        let run = try Run.start(Run.jackwave, ["--record", dir + "/\(ext)-archive.wav", "--tone", "1000", "-p", "jackwave:out_1", "-c", "1",
                                               "--outputs", "1", "--stream", "icecast://source@127.0.0.1:\(icecast.port)\(mount)",
                                               "--stream-quality", rate],
                                server: server.name, environment: ["JACKWAVE_STREAM_PASSWORD": icecast.sourcePassword])
        defer { if run.isRunning { run.signal(SIGKILL) } }
        #expect(run.waitForStderr("stream: connected to"), "\(run.stderrSoFar)")
        try Self.expectTone(try icecast.listen(mount, seconds: 1.2))
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("streamed in 1 connection, "), "\(out.stderr)")
    }

    @Test("--stream alone, without a recording: the inputs reach Icecast and decode to the tone")
    func streamWithoutRecording() throws {
        let server = try ServerKind.jackd.start()
        let icecast = try IcecastServer()
        let run = try Run.start(Run.jackwave, ["--tone", "1000", "-p", "jackwave:out_1", "-c", "1", "--outputs", "1", "--no-meter",
                                               "--stream", "icecast://source@127.0.0.1:\(icecast.port)/live.opus"],
                                server: server.name, environment: ["JACKWAVE_STREAM_PASSWORD": icecast.sourcePassword])
        defer { if run.isRunning { run.signal(SIGKILL) } }
        #expect(run.waitForStderr("stream: connected to"), "\(run.stderrSoFar)")
        try Self.expectTone(try icecast.listen("/live.opus", seconds: 1.2))
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("streamed in 1 connection, ") && out.stderr.contains("played 1000 Hz"), "\(out.stderr)")
        #expect(!out.stderr.contains("recorded"), "\(out.stderr)")
    }

    @Test("armed (--trigger), the stream carries the live feed while no take records, and the takes are the archive")
    func streamWhileArmed() throws {
        let server = try ServerKind.jackd.start()
        let icecast = try IcecastServer()
        let dir = temporaryDirectory()
        // The tone at -20 dBFS never reaches the -6 dB trigger: armed from start to end.
        let run = try Run.start(Run.jackwave, ["--record", dir + "/take.wav", "--trigger", "-6dB", "--tone", "1000", "-p", "jackwave:out_1",
                                               "-c", "1", "--outputs", "1", "--no-meter",
                                               "--stream", "icecast://source@127.0.0.1:\(icecast.port)/live.ogg"],
                                server: server.name, environment: ["JACKWAVE_STREAM_PASSWORD": icecast.sourcePassword])
        defer { if run.isRunning { run.signal(SIGKILL) } }
        #expect(run.waitForStderr("stream: connected to"), "\(run.stderrSoFar)")
        try Self.expectTone(try icecast.listen("/live.ogg", seconds: 1.2))
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("no take was recorded") && out.stderr.contains("streamed in 1 connection, "), "\(out.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).isEmpty)
    }

    @Test("--reconnect: the JACK server restarts, the stream keeps its Icecast connection (silence while away), the archive goes on")
    func streamAcrossServerRestart() throws {
        let server = try ServerKind.jackd.start()
        // Icecast drops a source that sends nothing for 2 s; the server stays away longer. No
        // burst: a listener hears what is streamed from then on, not the seconds before.
        let icecast = try IcecastServer(sourceTimeout: 2, burst: false)
        let dir = temporaryDirectory()
        let run = try Run.start(Run.jackwave, ["--record", dir + "/air.wav", "--reconnect", "--tone", "1000", "-p", "jackwave:out_1",
                                               "-c", "1", "--outputs", "1", "--no-meter", "--events", dir + "/air.jsonl",
                                               "--stream", "icecast://source@127.0.0.1:\(icecast.port)/live.opus"],
                                server: server.name, environment: ["JACKWAVE_STREAM_PASSWORD": icecast.sourcePassword])
        defer { if run.isRunning { run.signal(SIGKILL) } }
        #expect(run.waitForStderr("stream: connected to"), "\(run.stderrSoFar)")
        server.stop()
        #expect(run.waitForStderr("waiting for a JACK server to come back"), "\(run.stderrSoFar)")
        // The outage: 3 s, longer than Icecast waits for a silent source.
        usleep(3_000_000)
        let again = try JackServer.startAgain(named: server.name)
        defer { again.signal(SIGTERM); _ = again.finish(timeout: 10) }
        #expect(run.waitForStderr("the server is back"), "\(run.stderrSoFar)")
        #expect(waitUntil { Recording.framesSoFar(dir + "/air-002.wav") > 48000 || !run.isRunning }, "\(run.stderrSoFar)")
        try Self.expectTone(try icecast.listen("/live.opus", seconds: 1.2))
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("streamed in 1 connection, ") && out.stderr.contains("s of silence sent while the JACK server was away"),
                "\(out.stderr)")
        let kinds = try EventStream.read(dir + "/air.jsonl").compactMap { $0["event"] as? String }.filter { $0.hasPrefix("stream_") }
        #expect(kinds == ["stream_connected"], "\(kinds)")
        #expect(try Recording(dir + "/air-001.wav").frames > 0)
    }

    @Test("bad stream and station options exit 2 with one line and create no file", arguments: [
        ["--stream", "http://127.0.0.1:8000/live.ogg"], ["--stream", "icecast://127.0.0.1:8000/live.wav"],
        ["--stream", "icecast://127.0.0.1:8000/live.ogg"],                      // no password anywhere
        ["--stream", "icecast://u:p@127.0.0.1:8000/live.ogg", "--stream-password-file", "/dev/null"],
        ["--stream-quality", "96k"], ["--quality", "128k"],                     // needs --stream; FLAC takes none
        ["--name-pattern", "%H.flac"],                                          // needs --split-every
        ["--split-every", "1h", "--name-pattern", "%H.wav"], ["--keep", "30d"], // another format; one file is never cut
    ])
    func refused(arguments: [String]) throws {
        let caseDir = dir + "/\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: caseDir, withIntermediateDirectories: true)
        let server = arguments.contains("--quality") ? try ServerKind.jackd.start() : nil
        let run = try Run.jackwave(["--record", caseDir + "/x.flac", "-c", "1", "--manual", "-d", "1"] + arguments,
                                   server: server?.name ?? "jw-no-such-server-\(getpid())", environment: ["JACKWAVE_STREAM_PASSWORD": ""])
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: caseDir).isEmpty)
    }

    /// Where the stream's password is given: the environment, or the URL.
    enum PasswordPlace: String, CaseIterable, Sendable {
        case environment = "JACKWAVE_STREAM_PASSWORD"
        case url = "the --stream URL"
    }

    @Test("the stream's password leaves the process: not in jackwave's /proc/PID/environ or cmdline, nor what its hooks read through $PPID; the stream logs in with it",
          arguments: PasswordPlace.allCases)
    func passwordLeavesTheProcess(place: PasswordPlace) throws {
        let server = try ServerKind.jackd.start()
        let icecast = try IcecastServer()
        let dir = temporaryDirectory()
        let seen = dir + "/seen"
        // What a hook could find: its parent's (jackwave's) environment and arguments, and its own.
        let hook = "cat /proc/$PPID/environ /proc/$PPID/cmdline /proc/self/environ >> '\(seen)'; echo >> '\(seen)'; true"
        let login = place == .url ? "source:\(icecast.sourcePassword)" : "source"
        let run = try Run.start(Run.jackwave, ["--record", dir + "/air.wav", "--split", "1", "-d", "3", "--tone", "1000",
                                               "-p", "jackwave:out_1", "-c", "1", "--outputs", "1", "--no-meter",
                                               "--on-close", hook, "--on-event", hook,
                                               "--stream", "icecast://\(login)@127.0.0.1:\(icecast.port)/live.opus"],
                                server: server.name,
                                environment: place == .environment ? ["JACKWAVE_STREAM_PASSWORD": icecast.sourcePassword] : [:])
        defer { if run.isRunning { run.signal(SIGKILL) } }
        #expect(run.waitForStderr("stream: connected to"), "the password was used: \(run.stderrSoFar)")
        // While it runs, its own as any process of the user reads them.
        for table in ["environ", "cmdline"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(run.pid)/\(table)"))
            #expect(bytes.range(of: Data(icecast.sourcePassword.utf8)) == nil, "the password is in /proc/\(run.pid)/\(table)")
            #expect(bytes.range(of: Data("JACKWAVE_STREAM_PASSWORD=".utf8)) == nil, "the variable is in /proc/\(run.pid)/\(table)")
        }
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        let hooks = try Data(contentsOf: URL(fileURLWithPath: seen))
        // Three pieces closed, and the events stream_connected and stopped: five commands.
        #expect(hooks.split(separator: UInt8(ascii: "\n")).count >= 5, "\(hooks.count) bytes from the hooks")
        #expect(hooks.range(of: Data("PATH=".utf8)) != nil, "the hooks read no environment")
        #expect(hooks.range(of: Data(icecast.sourcePassword.utf8)) == nil, "a hook found the password")
        #expect(hooks.range(of: Data("JACKWAVE_STREAM_PASSWORD".utf8)) == nil, "a hook found the variable")
    }

    @Test("a FIFO given as --stream-password-file is refused at once, with one line and exit 2, never waited on")
    func passwordFifoRefused() throws {
        let dir = temporaryDirectory()
        let fifo = dir + "/password"
        #expect(mkfifo(fifo, 0o600) == 0)
        // No writer ever comes: an open that waited would last until the run's 30-s bound.
        let out = try Run.jackwave(["--record", dir + "/x.flac", "-c", "1", "--manual", "-d", "1",
                                    "--stream", "icecast://source@127.0.0.1:8000/live.ogg", "--stream-password-file", fifo],
                                   server: "jw-no-such-server-\(getpid())", timeout: 30)
        #expect(out.status == 2, "\(out.stderr)")
        #expect(out.stderr == "jackwave: error: --stream-password-file \(fifo): not a regular file\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["password"])
    }

    /// The body of the heredoc `<<'MARKER'` in docs/station-logger.md, as written there.
    static func documented(_ marker: String) throws -> String {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/station-logger.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        guard let start = text.range(of: "<<'\(marker)'\n"),
              let end = text.range(of: "\n\(marker)\n", range: start.upperBound..<text.endIndex) else {
            throw TestFailure("no <<'\(marker)' in \(docs.path)")
        }
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test("the systemd example of docs/station-logger.md, as written, records its hourly files and streams")
    func documentedServiceExample() throws {
        let server = try ServerKind.jackd.start()
        let icecast = try IcecastServer()
        let dir = temporaryDirectory()
        // What differs on this machine: the Icecast's port, its password, the server's name.
        let arguments = try Self.documented("ARGS").replacingOccurrences(of: "127.0.0.1:8000", with: "127.0.0.1:\(icecast.port)")
        try (arguments + "\n").write(toFile: dir + "/hall.args", atomically: false, encoding: .utf8)
        #expect(chmod(dir + "/hall.args", 0o644) == 0)
        var environment: [String: String] = [:]
        for line in try Self.documented("ENV").split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { environment[parts[0]] = parts[1] }
        }
        #expect(environment.keys.sorted() == ["JACKWAVE_STREAM_PASSWORD", "JACK_DEFAULT_SERVER"], "\(environment)")
        environment["JACKWAVE_STREAM_PASSWORD"] = icecast.sourcePassword
        environment.removeValue(forKey: "JACK_DEFAULT_SERVER")   // `server:` names the test's
        // As the unit runs it (its own ExecStart, read from scripts/jackwave@.service), in its
        // state folder.
        let unit = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/jackwave@.service"), encoding: .utf8)
        let execStart = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }, "no ExecStart")
        let command = execStart.dropFirst("ExecStart=".count).split(separator: " ").map {
            $0 == "/usr/bin/jackwave" ? Run.jackwave : $0 == "/etc/jackwave/%i.args" ? dir + "/hall.args" : String($0)
        }
        let run = try Run.start("/bin/sh", ["-c", "cd \"$0\" && shift && exec \"$@\"", dir, "-"] + command,
                                server: server.name, environment: environment)
        defer { if run.isRunning { run.signal(SIGKILL) } }
        #expect(run.waitForStderr("stream: connected to"), "\(run.stderrSoFar)")
        // The first hourly piece, in its day's folder (%Y-%m-%d/%H%M%z.flac).
        let dayFolder = { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).first { $0.hasPrefix("20") } }
        #expect(waitUntil { dayFolder() != nil }, "\(run.stderrSoFar)")
        let day = try #require(dayFolder(), "no folder for the day: \(run.stderrSoFar)")
        run.signal(SIGTERM)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        let pieces = try FileManager.default.contentsOfDirectory(atPath: dir + "/" + day)
        #expect(pieces.count == 1 && pieces.allSatisfy { $0.hasSuffix(".flac") }, "\(pieces)")
        #expect(FileManager.default.fileExists(atPath: dir + "/events.jsonl"))
    }

    /// A file decoded by ffmpeg: its first channel at 48 kHz.
    static func decode(_ path: String) throws -> [Float] {
        let out = path + ".f32"
        let run = try Run.tool("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-af", "pan=mono|c0=c0", "-f", "f32le", "-y", out],
                               server: nil, timeout: 60)
        guard run.status == 0 else { throw TestFailure("ffmpeg could not decode \(path): \(run.stderr)") }
        return try Data(contentsOf: URL(fileURLWithPath: out)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// What a listener heard is the 1 kHz tone (zero crossings over what came, past the
    /// decoder's first 0.1 s).
    static func expectTone(_ heard: [Float], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(heard.count >= 48000, "\(heard.count) frames heard", sourceLocation: sourceLocation)
        let f = try #require(Signal.frequency(Array(heard.dropFirst(4800)), rate: 48000), sourceLocation: sourceLocation)
        #expect(abs(f - 1000) < 2, "\(f) Hz", sourceLocation: sourceLocation)
    }
}
