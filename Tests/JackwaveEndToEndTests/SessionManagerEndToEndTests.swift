import Foundation
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// jackwave in a New Session Manager session, against the real `nsmd` 1.6.1 and its
/// `jackpatch`, driven through nsmd's server API as a session manager's window drives it.
@Suite("In a session (NSM), end to end", .serialized)
struct SessionManagerEndToEndTests {
    /// The first frame of `rec` where any channel carries signal (an input was connected),
    /// or nil if none ever does.
    func patternStart(_ rec: Recording) -> Int? {
        (0..<rec.frames).first { f in (0..<rec.channels).contains { rec[f, $0] != 0 } }
    }

    /// Each channel of `rec` is silence until its input was connected (one at a time), then
    /// the pattern, unbroken, to the end. A channel's pattern is channel 0's at another phase,
    /// so each is checked alone as a one-channel recording.
    func expectPatternAfterConnection(_ rec: Recording, _ name: String, server: any TestServer, stderr: String,
                                      sourceLocation: SourceLocation = #_sourceLocation) {
        for c in 0..<rec.channels {
            let samples = (0..<rec.frames).map { rec[$0, c] }
            guard let start = samples.firstIndex(where: { $0 != 0 }) else {
                Issue.record("\(name) channel \(c + 1): silence only (\(rec.frames) frames): \(stderr)", sourceLocation: sourceLocation)
                continue
            }
            server.expectPattern(Recording(channels: 1, samples: Array(samples[start...])), stderr: stderr, source: nil,
                                 sourceLocation: sourceLocation)
        }
    }

    @Test("a session records from open to close, saves with the file up to date, and numbers on when reopened, with its connections restored",
          arguments: ServerKind.allCases)
    func recordSaveCloseReopen(kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let nsm = try NSMServer(server: server)
        defer { nsm.quit() }
        try nsm.request("/nsm/server/new", ["take"])
        try nsm.request("/nsm/server/add", ["jackpatch"])
        try nsm.request("/nsm/server/add", ["jackwave"])
        let folder = try #require(nsm.clientFolder(session: "take"), "no client folder: \(nsm.process.stderrSoFar)")
        let clientID = String(folder.split(separator: "/").last ?? "")
        // The first open wrote the defaults, and records into take-001.wav as the JACK client
        // the session named.
        let first = folder + "/take-001.wav"
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(first) > 0 }, "\(nsm.process.stderrSoFar)")
        let settings = try String(contentsOfFile: folder + "/jackwave.args", encoding: .utf8)
        #expect(settings.contains("--record\ntake.wav\n"), "\(settings)")
        for channel in 1...2 {
            let out = try Run.tool("/usr/bin/jack_connect", ["src:out_\(channel)", "\(clientID):in_\(channel)"], server: server.name)
            #expect(out.status == 0, "\(clientID):in_\(channel): \(out.stderr)")
        }
        // A save in the middle: the reply comes once the file is up to date, and what a
        // reader finds then is the pattern and the start of the final file.
        let before = Recording.framesSoFar(first)
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(first) > before + 48000 }, "\(nsm.process.stderrSoFar)")
        try nsm.request("/nsm/server/save")
        let atSave = try Recording(first)
        #expect(atSave.frames > before + 48000)
        // Close: jackwave gets SIGTERM, finalizes the file and ends.
        try nsm.request("/nsm/server/close")
        #expect(waitUntil(timeout: 30) { !nsm.process.stderrSoFar.isEmpty && (try? Run.tool("/usr/bin/jack_lsp", [], server: server.name))?.stdout.contains(clientID) == false })
        let whole = try Recording(first)
        #expect(whole.frames >= atSave.frames)
        #expect(Array(whole.samples.prefix(atSave.samples.count)) == atSave.samples, "the file at the save is the start of the final file")
        expectPatternAfterConnection(whole, "take-001.wav", server: server, stderr: nsm.process.stderrSoFar)
        // Reopen: the next file, and jackpatch restores the connections.
        try nsm.request("/nsm/server/open", ["take"])
        let second = folder + "/take-002.wav"
        #expect(waitUntil(timeout: 30) {
            ((try? Recording(second)).flatMap(patternStart)).map { _ in Recording.framesSoFar(second) > 48000 } ?? false
        }, "\(nsm.process.stderrSoFar)")
        try nsm.request("/nsm/server/close")
        #expect(waitUntil(timeout: 30) { (try? Run.tool("/usr/bin/jack_lsp", [], server: server.name))?.stdout.contains(clientID) == false })
        let reopened = try Recording(second)
        expectPatternAfterConnection(reopened, "take-002.wav", server: server, stderr: nsm.process.stderrSoFar)
        #expect(try String(contentsOfFile: folder + "/jackwave.args", encoding: .utf8) == settings, "a save never rewrites the settings")
    }

    @Test("a setting that points outside the session's folder is refused with /error and a line, and nothing is recorded")
    func settingOutsideFolderRefused() throws {
        let server = try ServerKind.jackd.start()
        let nsm = try NSMServer(server: server)
        defer { nsm.quit() }
        try nsm.request("/nsm/server/new", ["outside"])
        try nsm.request("/nsm/server/add", ["jackwave"])
        let folder = try #require(nsm.clientFolder(session: "outside"), "no client folder: \(nsm.process.stderrSoFar)")
        #expect(waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: folder + "/take-001.wav") })
        try nsm.request("/nsm/server/close")
        let escape = temporaryDirectory()
        try "--record\n\(escape)/take.wav\n--manual\n".write(toFile: folder + "/jackwave.args", atomically: false, encoding: .utf8)
        try nsm.request("/nsm/server/open", ["outside"])
        #expect(waitUntil(timeout: 30) { nsm.process.stderrSoFar.contains("outside the session's folder") }, "\(nsm.process.stderrSoFar)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: escape)) == [])
        #expect(!FileManager.default.fileExists(atPath: folder + "/take-002.wav"))
    }

    /// The pids nsmd said it launched jackwave as, in order.
    func launchedPids(_ nsm: NSMServer) -> [pid_t] {
        nsm.process.stderrSoFar.matches(of: #/Process jackwave has pid: (\d+)/#).compactMap { pid_t($0.1) }
    }

    @Test("a jackwave killed mid-take leaves a readable file and numbers on when the session restarts it; a manager killed mid-take leaves it recording, and said")
    func faults() throws {
        let server = try ServerKind.jackd.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let nsm = try NSMServer(server: server)
        try nsm.request("/nsm/server/new", ["faults"])
        try nsm.request("/nsm/server/add", ["jackwave"])
        let folder = try #require(nsm.clientFolder(session: "faults"), "no client folder: \(nsm.process.stderrSoFar)")
        let clientID = String(folder.split(separator: "/").last ?? "")
        let first = folder + "/take-001.wav", second = folder + "/take-002.wav"
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(first) > 0 }, "\(nsm.process.stderrSoFar)")
        let connect = {
            for channel in 1...2 {
                _ = try? Run.tool("/usr/bin/jack_connect", ["src:out_\(channel)", "\(clientID):in_\(channel)"], server: server.name)
            }
        }
        connect()
        let connectedAt = Recording.framesSoFar(first)
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(first) > connectedAt + 48000 })
        // SIGKILL: the file holds what its header last said, readable, the pattern unbroken.
        let killed = try #require(launchedPids(nsm).first, "\(nsm.process.stderrSoFar)")
        let seen = Recording.framesSoFar(first)
        kill(killed, SIGKILL)
        #expect(waitUntil(timeout: 30) { kill(killed, 0) != 0 || (try? String(contentsOfFile: "/proc/\(killed)/stat", encoding: .utf8))?.contains(") Z ") == true })
        let left = try Recording(first)
        #expect(left.frames >= seen)
        expectPatternAfterConnection(left, "take-001.wav", server: server, stderr: nsm.process.stderrSoFar)
        // The session restarts it (closed and opened again): the next take.
        try nsm.request("/nsm/server/close")
        try nsm.request("/nsm/server/open", ["faults"])
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(second) > 0 }, "\(nsm.process.stderrSoFar)")
        let restarted = try #require(launchedPids(nsm).dropFirst().first, "\(nsm.process.stderrSoFar)")
        defer { kill(restarted, SIGKILL) }
        connect()
        // The manager killed: jackwave records on, and says so.
        nsm.process.signal(SIGKILL)
        #expect(waitUntil(timeout: 30) { nsm.process.stderrSoFar.contains("the session manager is gone") }, "\(nsm.process.stderrSoFar)")
        let afterManager = Recording.framesSoFar(second)
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(second) > afterManager + 48000 }, "still recording")
        kill(restarted, SIGTERM)
        #expect(waitUntil(timeout: 30) { kill(restarted, 0) != 0 || (try? String(contentsOfFile: "/proc/\(restarted)/stat", encoding: .utf8))?.contains(") Z ") == true })
        #expect(waitUntil(timeout: 30) { nsm.process.stderrSoFar.contains("jackwave: recorded") }, "\(nsm.process.stderrSoFar)")
        expectPatternAfterConnection(try Recording(second), "take-002.wav", server: server, stderr: nsm.process.stderrSoFar)
    }

    @Test("opened while no JACK server runs, jackwave answers the open with /error and its line, as outside a session, and records nothing")
    func noServerAtOpen() throws {
        let server = try ServerKind.jackd.start()
        let nsm = try NSMServer(server: server)
        defer { nsm.quit() }
        server.stop()
        try nsm.request("/nsm/server/new", ["down"])
        try nsm.request("/nsm/server/add", ["jackwave"])
        #expect(waitUntil(timeout: 30) { nsm.process.stderrSoFar.contains("replied with error") }, "\(nsm.process.stderrSoFar)")
        #expect(nsm.process.stderrSoFar.contains("jackwave: error: cannot connect to JACK server"), "\(nsm.process.stderrSoFar)")
        let folder = try #require(nsm.clientFolder(session: "down"), "no client folder: \(nsm.process.stderrSoFar)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".wav") } == [])
    }

    @Test("opening another session switches the running jackwave: this session's file finalized, the next one's recorded as its client",
          arguments: ServerKind.allCases)
    func switchesSessions(kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let nsm = try NSMServer(server: server)
        defer { nsm.quit() }
        // Session "one" with a jackwave, saved; then session "two" with another.
        try nsm.request("/nsm/server/new", ["one"])
        try nsm.request("/nsm/server/add", ["jackwave"])
        let one = try #require(nsm.clientFolder(session: "one"), "\(nsm.process.stderrSoFar)")
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(one + "/take-001.wav") > 0 }, "\(nsm.process.stderrSoFar)")
        try nsm.request("/nsm/server/save")
        try nsm.request("/nsm/server/new", ["two"])
        try nsm.request("/nsm/server/add", ["jackwave"])
        let two = try #require(nsm.clientFolder(session: "two"), "\(nsm.process.stderrSoFar)")
        let twoID = String(two.split(separator: "/").last ?? ""), oneID = String(one.split(separator: "/").last ?? "")
        let before = two + "/take-001.wav", after = one + "/take-002.wav"
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(before) > 0 }, "\(nsm.process.stderrSoFar)")
        for channel in 1...2 {
            _ = try Run.tool("/usr/bin/jack_connect", ["src:out_\(channel)", "\(twoID):in_\(channel)"], server: server.name)
        }
        let connected = Recording.framesSoFar(before)
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(before) > connected + 48000 })
        // Opening "one" again: nsmd hands it to the running jackwave, which switches.
        let pids = nsm.process.stderrSoFar.matches(of: #/Process jackwave has pid: (\d+)/#).count
        try nsm.request("/nsm/server/open", ["one"])
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(after) > 0 }, "\(nsm.process.stderrSoFar)")
        #expect(nsm.process.stderrSoFar.matches(of: #/Process jackwave has pid: (\d+)/#).count == pids, "switched, not started again")
        #expect(nsm.process.stderrSoFar.contains("switching to \(one)"), "\(nsm.process.stderrSoFar)")
        let ports = try Run.tool("/usr/bin/jack_lsp", [], server: server.name).stdout
        #expect(ports.contains("\(oneID):in_1") && !ports.contains("\(twoID):in_1"), "\(ports)")
        expectPatternAfterConnection(try Recording(before), "two's take-001.wav", server: server, stderr: nsm.process.stderrSoFar)
        // The gap the switch left, by the files' wall-clock starts (bext): said, not asserted.
        if let old = try? SoundFile(readingFrom: before), let new = try? SoundFile(readingFrom: after),
           let a = old.broadcastInfo?.timeReference, let b = new.broadcastInfo?.timeReference {
            let gap = (Double(b) - Double(a) - Double(old.frames)) / Double(old.sampleRate)
            print("switch on \(kind): \(String(format: "%.3f", gap)) s between the old file's end and the new file's start")
        }
        for channel in 1...2 {
            _ = try Run.tool("/usr/bin/jack_connect", ["src:out_\(channel)", "\(oneID):in_\(channel)"], server: server.name)
        }
        let reconnected = Recording.framesSoFar(after)
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(after) > reconnected + 48000 })
        try nsm.request("/nsm/server/close")
        expectPatternAfterConnection(try Recording(after), "one's take-002.wav", server: server, stderr: nsm.process.stderrSoFar)
    }
}

/// The manager gone (nsmd killed) and someone else on its freed port: jackwave records on,
/// says so, and obeys nothing more from that address.
extension SessionManagerEndToEndTests {
    /// A jackwave in session `name` recording take-002.wav from the test source, with its
    /// events in `events.jsonl` in its folder (a first open makes the settings, which get
    /// `--events`; the second records with them): its folder and pid.
    func recordingWithEvents(_ nsm: NSMServer, session name: String, server: any TestServer,
                             executable: String = "jackwave") throws -> (folder: String, pid: pid_t) {
        try nsm.request("/nsm/server/new", [name])
        try nsm.request("/nsm/server/add", [executable])
        let folder = try #require(nsm.clientFolder(session: name), "no client folder: \(nsm.process.stderrSoFar)")
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(folder + "/take-001.wav") > 0 }, "\(nsm.process.stderrSoFar)")
        try nsm.request("/nsm/server/close")
        let settings = try String(contentsOfFile: folder + "/jackwave.args", encoding: .utf8)
        try (settings + "--events\nevents.jsonl\n").write(toFile: folder + "/jackwave.args", atomically: false, encoding: .utf8)
        try nsm.request("/nsm/server/open", [name])
        let take = folder + "/take-002.wav"
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(take) > 0 }, "\(nsm.process.stderrSoFar)")
        let launched = nsm.process.stderrSoFar.matches(of: try Regex("Process \(executable) has pid: (\\d+)")).compactMap {
            ($0.output[1].substring).flatMap { pid_t($0) }
        }
        let pid = try #require(launched.last, "\(nsm.process.stderrSoFar)")
        let clientID = String(folder.split(separator: "/").last ?? "")
        for channel in 1...2 {
            let out = try Run.tool("/usr/bin/jack_connect", ["src:out_\(channel)", "\(clientID):in_\(channel)"], server: server.name)
            #expect(out.status == 0, "\(clientID):in_\(channel): \(out.stderr)")
        }
        let connected = Recording.framesSoFar(take)
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(take) > connected + 24000 }, "\(nsm.process.stderrSoFar)")
        return (folder, pid)
    }

    /// Ends jackwave as a quit would (SIGTERM), now that no manager can.
    func stop(_ pid: pid_t, _ nsm: NSMServer) {
        kill(pid, SIGTERM)
        #expect(waitUntil(timeout: 30) {
            kill(pid, 0) != 0 || (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") Z ") == true
        })
        #expect(waitUntil(timeout: 30) { nsm.process.stderrSoFar.contains("jackwave: recorded") }, "\(nsm.process.stderrSoFar)")
    }

    /// The address jackwave takes for the manager's, as `NSMAddress` resolves `NSM_URL`: the
    /// host's loopback address, or this machine's own, reached over 127.0.0.1 (or ::1).
    static func managerHost(_ url: String) -> String {
        let host = url.replacingOccurrences(of: "osc.udp://", with: "").split(separator: ":").first.map(String.init) ?? "127.0.0.1"
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return "127.0.0.1" }
        defer { freeaddrinfo(list) }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(first.pointee.ai_addr, first.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else {
            return "127.0.0.1"
        }
        let numeric = String(cString: buffer)
        if first.pointee.ai_family == AF_INET6 { return "::1" }
        return numeric.hasPrefix("127.") ? numeric : "127.0.0.1"
    }

    /// The loopback UDP port of process `pid`'s NSM socket: the UDP rows of its network's
    /// table whose inode is one of its descriptors'.
    static func udpPort(of pid: pid_t) -> Int? {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        let inodes = Set(fds.compactMap { fd -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                  target.hasPrefix("socket:[") else { return nil }
            return String(target.dropFirst(8).dropLast())
        })
        for table in ["/proc/\(pid)/net/udp", "/proc/\(pid)/net/udp6"] {
            let text = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, inodes.contains(String(fields[9])),
                      let port = fields[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) }) else { continue }
                return port
            }
        }
        return nil
    }

    @Test("the manager gone (nsmd killed): jackwave records on, sample-exact, and says so in a line and a session_manager_lost event",
          arguments: ServerKind.allCases)
    func managerGone(kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let nsm = try NSMServer(server: server)
        let (folder, pid) = try recordingWithEvents(nsm, session: "gone", server: server)
        defer { kill(pid, SIGKILL) }
        let take = folder + "/take-002.wav"
        nsm.process.signal(SIGKILL)
        #expect(waitUntil(timeout: 30) { nsm.process.stderrSoFar.contains("the session manager is gone (process ") }, "\(nsm.process.stderrSoFar)")
        let after = Recording.framesSoFar(take)
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(take) > after + 48000 }, "still recording: \(nsm.process.stderrSoFar)")
        stop(pid, nsm)
        expectPatternAfterConnection(try Recording(take), "take-002.wav", server: server, stderr: nsm.process.stderrSoFar)
        let lost = try EventStream.read(folder + "/events.jsonl").filter { $0["event"] as? String == "session_manager_lost" }
        #expect(lost.count == 1 && lost.first?["reason"] as? String == "parent", "\(lost)")
    }

    /// nsmd 1.6.1 leaks its socket into every client, which keeps its port taken while any
    /// runs; a manager that leaks nothing (RaySession's daemon) frees it as it dies. jackwave
    /// is started as under the latter (`NSMServer.closingWrapper`), so that the port is free.
    @Test("a forger on the dead manager's port sends /nsm/client/open to a folder of its own: refused and said, nothing made there, the recording sample-exact",
          arguments: ServerKind.allCases)
    func forgedOpenRefused(kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let nsm = try NSMServer(server: server)
        let (folder, pid) = try recordingWithEvents(nsm, session: "forged", server: server, executable: NSMServer.closingWrapper)
        defer { kill(pid, SIGKILL) }
        let take = folder + "/take-002.wav"
        let target = try #require(Self.udpPort(of: pid), "jackwave's NSM socket not found")
        let host = Self.managerHost(nsm.url)
        nsm.process.signal(SIGKILL)
        // The forger binds the port as soon as the kernel has freed it, and sends at once:
        // jackwave may not have looked for its manager yet.
        var forger: OscPeer?
        #expect(waitUntil(timeout: 30, interval: 0.005) {
            forger = try? OscPeer(host: host, port: nsm.port)
            return forger != nil
        }, "the manager's port \(host):\(nsm.port) was never free")
        let theirs = temporaryDirectory() + "/theirs"
        forger?.send("/nsm/client/open", [.string(theirs), .string("forged"), .string("jackwave.nFORG")], to: target,
                     host: host.contains(":") ? "::1" : "127.0.0.1")
        #expect(waitUntil(timeout: 30) { nsm.process.stderrSoFar.contains("refused /nsm/client/open (\(theirs))") }, "\(nsm.process.stderrSoFar)")
        #expect(!FileManager.default.fileExists(atPath: theirs), "the forged open made \(theirs)")
        #expect(!nsm.process.stderrSoFar.contains("switching to"), "\(nsm.process.stderrSoFar)")
        let after = Recording.framesSoFar(take)
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(take) > after + 48000 }, "still recording: \(nsm.process.stderrSoFar)")
        stop(pid, nsm)
        #expect(!FileManager.default.fileExists(atPath: theirs))
        expectPatternAfterConnection(try Recording(take), "take-002.wav", server: server, stderr: nsm.process.stderrSoFar)
        let events = try EventStream.read(folder + "/events.jsonl")
        #expect(events.filter { $0["event"] as? String == "session_manager_lost" }.count == 1)
        let refused = events.filter { $0["event"] as? String == "session_request_refused" }
        #expect(refused.count == 1 && refused.first?["folder"] as? String == theirs && refused.first?["request"] as? String == "/nsm/client/open",
                "\(refused)")
    }
}
