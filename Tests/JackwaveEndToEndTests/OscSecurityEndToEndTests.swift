import Foundation
import JackwaveTestSupport
import JackwaveHost
import JackwaveSoundFiles
import JackwaveUnattended
import Testing

/// `--osc` is safe to leave on a network: local unless asked, other senders dropped and
/// counted, replies that are no requests and come at a bounded rate, memory that outside
/// input cannot grow. On jackd only: nothing here is a server's behaviour (the listener
/// never touches JACK), and a second server would double the time without testing more.
@Suite("OSC is safe on a network", .serialized)
struct OscSecurityEndToEndTests {
    let dir = temporaryDirectory()


    /// jackwave recording one unconnected input with `--osc`, once its file has frames.
    func record(_ name: String, osc: [String], server: any TestServer, extra: [String] = [],
                launcher: (String, [String]) -> (String, [String]) = { ($0, $1) }) throws -> (Run.Running, String) {
        let path = dir + "/\(name).wav", first = dir + "/\(name)-001.wav"
        let (program, arguments) = launcher(Run.jackwave, ["--record", path, "-c", "1", "--manual", "-n", name] + osc + extra)
        let run = try Run.start(program, arguments, server: server.name)
        guard run.waitForRecordedFrames(first, moreThan: 4800) else {
            run.signal(SIGKILL)
            throw TestFailure("no frames in \(first): \(run.stderrSoFar)")
        }
        return (run, first)
    }

    /// VmRSS of `pid`, KiB.
    static func residentKiB(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    @Test("--osc PORT listens on 127.0.0.1 and ::1 only, and a message from another host is refused by the kernel: nothing listens where it can reach",
          .enabled(if: NetworkNamespaces.available))
    func otherHostRefusedByDefault() throws {
        let server = try ServerKind.jackd.start()
        let hosts = try NetworkNamespaces()
        let port = try FreePort.udp()
        let (run, first) = try record("local", osc: ["--osc", "\(port)"], server: server, launcher: hosts.onJackwaveSide)
        defer { run.signal(SIGKILL) }
        let sockets = try Run.tool("/usr/sbin/ip", ["netns", "exec", hosts.jackwaveSide, "ss", "-Hulnp"], server: nil, timeout: 30).stdout
        let bound = sockets.split(separator: "\n").filter { $0.contains(":\(port) ") }.compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first }
        #expect(Set(bound.map(String.init)) == ["127.0.0.1:\(port)", "[::1]:\(port)"], "\(sockets)")
        let stop = try #require(OscOutgoing(path: "/jackwave/stop").datagram)
        let refused = try hosts.onPeerSide {
            let fd = UDPProbe.socket(boundTo: NetworkNamespaces.peerAddress)
            defer { close(fd) }
            return UDPProbe.isRefused(stop, host: NetworkNamespaces.jackwaveAddress, port: port, socket: fd)
        }
        #expect(refused, "the kernel answers port unreachable")
        // Still recording, and a local client is answered.
        let peer = try hosts.onJackwaveSide { try OscPeer() }
        #expect(peer.status(of: port)?.arguments.first == .string("recording"))
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!out.stderr.contains("OSC: stop"), "\(out.stderr)")
        #expect(try Recording(first).frames > 4800)
    }

    @Test("listening on every address, a sender from another host is dropped and counted, never acted on",
          .enabled(if: NetworkNamespaces.available))
    func otherHostDroppedAndCounted() throws {
        let server = try ServerKind.jackd.start()
        let hosts = try NetworkNamespaces()
        let port = try FreePort.udp()
        let (run, _) = try record("everywhere", osc: ["--osc", "0.0.0.0:\(port)"], server: server, launcher: hosts.onJackwaveSide)
        defer { run.signal(SIGKILL) }
        #expect(run.stderrSoFar.contains("OSC on 0.0.0.0:\(port) admits only this machine's own senders: --osc-allow CIDR admits others"))
        let remote = try hosts.onPeerSide { try OscPeer(host: NetworkNamespaces.peerAddress) }
        remote.send("/jackwave/stop", to: port, host: NetworkNamespaces.jackwaveAddress)
        #expect(run.waitForStderr("OSC: refused 1 datagram from \(NetworkNamespaces.peerAddress): only this machine and --osc-allow networks may send"),
                "\(run.stderrSoFar)")
        #expect(run.isRunning)
        remote.send("/jackwave/status", to: port, host: NetworkNamespaces.jackwaveAddress)
        let local = try hosts.onJackwaveSide { try OscPeer() }
        #expect(local.status(of: port)?.arguments.first == .string("recording"))
        #expect(remote.received.isEmpty, "no reply goes to a sender not admitted")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!out.stderr.contains("OSC: stop\n"), "\(out.stderr)")
        #expect(out.stderr.contains("OSC: in all 2 datagram(s) refused from senders not allowed"), "\(out.stderr)")
    }

    @Test("--osc-allow that would admit nobody, or is not decimal bits, is refused: exit 2, one line naming what works, no file",
          arguments: [(["--osc", "PORT", "--osc-allow", "192.0.2.2/32"],
                       "--osc-allow 192.0.2.2/32 admits nobody while --osc listens on this machine only; listen where others reach it: --osc 0.0.0.0:PORT --osc-allow 192.0.2.2/32"),
                      (["--osc", "0.0.0.0:PORT", "--osc-allow", "192.0.2.1/+24"],
                       "--osc-allow: '192.0.2.1/+24' is not a network (a numeric address, or ADDRESS/BITS with BITS in digits; ::ffff: networks from /96)"),
                      (["--osc", "0.0.0.0:PORT", "--osc-allow", "::ffff:192.0.2.0/64"],
                       "--osc-allow: '::ffff:192.0.2.0/64' is not a network (a numeric address, or ADDRESS/BITS with BITS in digits; ::ffff: networks from /96)")])
    func allowListRefused(osc: [String], line: String) throws {
        let port = String(try FreePort.udp())
        let caseDir = dir + "/\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: caseDir, withIntermediateDirectories: true)
        let out = try Run.jackwave(["--record", caseDir + "/x.wav", "-c", "1", "--manual", "-d", "1"]
                                   + osc.map { $0.replacingOccurrences(of: "PORT", with: port) },
                                   server: "jw-no-such-server-\(getpid())")
        #expect(out.status == 2, "\(out.stderr)")
        #expect(out.stderr == "jackwave: error: \(line.replacingOccurrences(of: "PORT", with: port))\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: caseDir).isEmpty)
    }

    @Test("--osc-allow 0.0.0.0/0 is taken, and said to admit every IPv4 sender")
    func allowEveryoneIsSaid() throws {
        let server = try ServerKind.jackd.start()
        let port = try FreePort.udp()
        let (run, _) = try record("everyone", osc: ["--osc", "0.0.0.0:\(port)", "--osc-allow", "0.0.0.0/0"], server: server)
        defer { run.signal(SIGKILL) }
        #expect(run.stderrSoFar.contains("OSC: --osc-allow 0.0.0.0/0 admits every IPv4 sender that reaches 0.0.0.0:\(port)"),
                "\(run.stderrSoFar)")
    }

    @Test("--osc-allow ::ffff:192.0.2.0/120 admits the IPv4 host it names, as 192.0.2.0/24 would",
          .enabled(if: NetworkNamespaces.available))
    func mappedNetworkAdmits() throws {
        let server = try ServerKind.jackd.start()
        let hosts = try NetworkNamespaces()
        let port = try FreePort.udp()
        let (run, _) = try record("mapped", osc: ["--osc", "\(NetworkNamespaces.jackwaveAddress):\(port)", "--osc-allow", "::ffff:192.0.2.0/120"],
                                  server: server, launcher: hosts.onJackwaveSide)
        defer { run.signal(SIGKILL) }
        let remote = try hosts.onPeerSide { try OscPeer(host: NetworkNamespaces.peerAddress) }
        #expect(remote.status(of: port, host: NetworkNamespaces.jackwaveAddress)?.arguments.first == .string("recording"),
                "\(run.stderrSoFar)")
        #expect(!run.stderrSoFar.contains("OSC: refused"), "\(run.stderrSoFar)")
    }

    @Test("--osc ADDR:PORT with --osc-allow admits the other host: its status is answered there, its marker and its stop acted on",
          .enabled(if: NetworkNamespaces.available))
    func otherHostAdmittedByAllow() throws {
        let server = try ServerKind.jackd.start()
        let hosts = try NetworkNamespaces()
        let port = try FreePort.udp()
        let (run, first) = try record("allowed", osc: ["--osc", "\(NetworkNamespaces.jackwaveAddress):\(port)", "--osc-allow", "192.0.2.0/24"],
                                      server: server, launcher: hosts.onJackwaveSide)
        defer { run.signal(SIGKILL) }
        let remote = try hosts.onPeerSide { try OscPeer(host: NetworkNamespaces.peerAddress) }
        let reply = remote.status(of: port, host: NetworkNamespaces.jackwaveAddress)
        #expect(reply?.arguments.first == .string("recording"))
        #expect(reply?.sender.description == "\(NetworkNamespaces.jackwaveAddress):\(port)")
        remote.send("/jackwave/marker", [.string("from afar")], to: port, host: NetworkNamespaces.jackwaveAddress)
        #expect(run.waitForStderr("marker 1 (from afar) at"), "\(run.stderrSoFar)")
        remote.send("/jackwave/stop", to: port, host: NetworkNamespaces.jackwaveAddress)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try SoundFile(readingFrom: first).cues.count == 1)
    }

    @Test("a forged sender pointing two jackwaves at each other makes one marker: the reply is no request, and the ping-pong ends")
    func forgedPingPong() throws {
        let server = try ServerKind.jackd.start()
        let (portA, portB) = (try FreePort.udp(), try FreePort.udp())
        let (a, firstA) = try record("pingA", osc: ["--osc", "\(portA)"], server: server)
        defer { a.signal(SIGKILL) }
        let (b, _) = try record("pingB", osc: ["--osc", "\(portB)"], server: server)
        defer { b.signal(SIGKILL) }
        let marker = try #require(OscOutgoing(path: "/jackwave/marker", arguments: [.string("forged")]).datagram)
        #expect(UDPProbe.forge(marker, from: portB, to: portA), "a raw socket (root)")
        #expect(a.waitForStderr("marker 1 (forged) at"), "\(a.stderrSoFar)")
        #expect(b.waitForStderr("OSC: /jackwave/reply/marker is a reply, not a request (ignored)"), "\(b.stderrSoFar)")
        // Both have handled everything sent before these fences: nothing more came of it.
        let peer = try OscPeer()
        #expect(peer.status(of: portA) != nil && peer.status(of: portB) != nil)
        a.signal(SIGINT)
        b.signal(SIGINT)
        let (outA, outB) = (a.finish(timeout: 30), b.finish(timeout: 30))
        #expect(outA.status == 0 && outB.status == 0, "\(outA.stderr)\n\(outB.stderr)")
        #expect(!outA.stderr.contains("marker 2"), "\(outA.stderr)")
        #expect(!outB.stderr.contains("marker 1"), "\(outB.stderr)")
        #expect(try SoundFile(readingFrom: firstA).cues.count == 1)
    }

    @Test("a bundle of 2,000 /jackwave/status messages gets a bounded number of replies; the rest are counted")
    func statusBundleBounded() throws {
        let server = try ServerKind.jackd.start()
        let port = try FreePort.udp()
        let (run, _) = try record("bundle", osc: ["--osc", "\(port)"], server: server)
        defer { run.signal(SIGKILL) }
        let peer = try OscPeer()
        let bundle = try #require(OscOutgoing.bundle(Array(repeating: OscOutgoing(path: "/jackwave/status"), count: 2000)))
        #expect(bundle.count < 65507)
        #expect(peer.send(datagram: bundle, to: port))
        #expect(run.waitForStderr("not sent (at most 20 a second)"), "\(run.stderrSoFar)")
        var fences = 0
        let deadline = Date().addingTimeInterval(30)
        var answered = false
        while !answered && Date() < deadline {
            fences += 1
            answered = peer.status(of: port, timeout: 0.5) != nil
        }
        #expect(answered)
        let replies = peer.received.filter { $0.path == "/jackwave/reply/status" }.count
        #expect(replies >= 1 && replies <= 20 + 5 + fences, "\(replies) replies to 2000 requests")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("dropped: more than 256 were waiting"), "\(out.stderr)")
    }

    /// Sends `count` datagrams made by `make` as fast as jackwave's listener takes them: after
    /// every few, until its socket's receive queue (`/proc/net/udp`) is nearly empty, so that
    /// every datagram reaches jackwave rather than overflowing the kernel's buffer, however
    /// fast or slowly jackwave reads (a listener that stalls fails the bound). Returns the
    /// datagrams the kernel dropped at jackwave's socket meanwhile (nil if a wait timed out).
    func flood(_ count: Int, to port: Int, from peer: OscPeer, _ make: (Int) throws -> [UInt8]) rethrows -> Int? {
        let dropsBefore = UDPProbe.queue(ofPort: port)?.drops ?? 0
        for i in 0..<count {
            peer.send(datagram: try make(i), to: port)
            if i % 16 == 15 && !waitUntil(timeout: 30, interval: 0.0005, { (UDPProbe.queue(ofPort: port)?.waiting ?? 0) < 16_384 }) {
                return nil
            }
        }
        guard waitUntil(timeout: 30, interval: 0.001, { UDPProbe.queue(ofPort: port)?.waiting == 0 }) else { return nil }
        return (UDPProbe.queue(ofPort: port)?.drops ?? 0) - dropsBefore
    }

    /// Messages of a flood the lines account for: each interval's first line of `prefix`,
    /// and every "N more like it" count of `kind`, and the total over the inbox's bound.
    func accounted(_ text: String, firstLines prefix: String, kind: String) throws -> Int {
        let firsts = text.components(separatedBy: prefix).count - 1
        let counted = text.matches(of: try Regex<(Substring, Substring)>("\\Q\(kind)\\E: (\\d+) more like it")).compactMap { Int($0.1) }.reduce(0, +)
        let over = total(text, #/, (\d+) message\(s\) over the queue's bound/#)
        return firsts + counted + over
    }

    /// The number in `pattern`'s first group, summed over every match in `text`.
    func total(_ text: String, _ pattern: Regex<(Substring, Substring)>) -> Int {
        text.matches(of: pattern).compactMap { Int($0.1) }.reduce(0, +)
    }

    @Test("10,000 far-future bundles leave the resident memory flat: liblo holds no timed bundle, the inbox is bounded")
    func farFutureBundles() throws {
        let server = try ServerKind.jackd.start()
        let port = try FreePort.udp()
        let (run, _) = try record("future", osc: ["--osc", "\(port)"], server: server)
        defer { run.signal(SIGKILL) }
        let peer = try OscPeer()
        let messages = (0..<30).map { OscOutgoing(path: "/far/future/\($0)", arguments: [.int(Int64($0))]) }
        let bundle = try #require(OscOutgoing.bundle(messages, timeTag: (seconds: 0xffff_ffff, fraction: 0)))
        #expect(flood(500, to: port, from: peer) { _ in bundle } == 0)
        #expect(peer.status(of: port) != nil)
        let before = Self.residentKiB(run.pid)
        #expect(flood(10_000, to: port, from: peer) { _ in bundle } == 0)
        #expect(peer.status(of: port) != nil)
        let after = Self.residentKiB(run.pid)
        #expect(after - before < 4096, "RSS \(before) -> \(after) KiB")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        // Every one of the 315,000 messages was handled (said or counted) or counted over the
        // inbox's bound; so were the few status fences that found the inbox full.
        let seen = try accounted(out.stderr, firstLines: "OSC: unknown message /far/future/", kind: "OSC: unknown messages")
        #expect(seen >= 315_000 && seen < 315_000 + 100, "\(out.stderr)")
    }

    @Test("100,000 unknown messages while --reconnect waits for a server are answered and counted, and leave the resident memory flat")
    func floodWhileWaiting() throws {
        let server = try ServerKind.jackd.start()
        let port = try FreePort.udp()
        let (run, _) = try record("waiting", osc: ["--osc", "\(port)"], server: server, extra: ["--reconnect"])
        defer { run.signal(SIGKILL) }
        server.stop()
        #expect(run.waitForStderr("waiting for a JACK server to come back"), "\(run.stderrSoFar)")
        let peer = try OscPeer()
        #expect(peer.status(of: port)?.arguments.first == .string("waiting"))
        #expect(try flood(2_000, to: port, from: peer) { i in try #require(OscOutgoing(path: "/unknown/\(i)").datagram) } == 0)
        #expect(peer.status(of: port) != nil)
        let before = Self.residentKiB(run.pid)
        #expect(try flood(100_000, to: port, from: peer) { i in try #require(OscOutgoing(path: "/unknown/\(i)").datagram) } == 0)
        // Answered while waiting: the inbox is drained in this state too.
        #expect(peer.status(of: port)?.arguments.first == .string("waiting"))
        let after = Self.residentKiB(run.pid)
        #expect(after - before < 4096, "RSS \(before) -> \(after) KiB")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        // Two lines per 10 s at most, however many came.
        #expect(out.stderr.split(separator: "\n").count < 40, "\(out.stderr.prefix(2000))")
        let seen = try accounted(out.stderr, firstLines: "OSC: unknown message /unknown/", kind: "OSC: unknown messages")
        #expect(seen >= 102_000 && seen < 102_000 + 100, "\(out.stderr)")
    }

    @Test("nan, inf, -inf and 1e308 frequencies and volumes are refused from the command line, each message naming the value as typed",
          arguments: [("--tone", "nan", "'nan' is not a finite number"), ("--tone", "inf", "'inf' is not a finite number"),
                      ("--tone", "-inf", "'-inf' is not a finite number"), ("--tone", "1e308", "not 1e308"),
                      ("--volume", "nan", "'nan' is not a level"), ("--volume", "inf", "'inf' is not a level"),
                      ("--volume", "-inf", "'-inf' is not a level"), ("--volume", "1e308", "not 1e308"),
                      ("--volume", "nandB", "'nandB' is not a level"), ("--volume", "-infdB", "'-infdB' is not a level"),
                      ("--volume", "1e308dB", "1e308dB is above 0 dBFS")])
    func badNumbersOnCommandLine(option: String, value: String, said: String) throws {
        let arguments = option == "--tone" ? ["--tone", value] : ["--tone", "440", "--volume", value]
        let run = try Run.jackwave(arguments, server: "jw-no-such-server-\(getpid())")
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("jackwave: error: \(option)") && run.stderr.contains(said), "\(run.stderr)")
    }

    @Test("nan, inf, -inf and 1e308 frequencies and volumes are refused over OSC, each line naming the value, and the tone plays on")
    func badNumbersOverOsc() throws {
        let server = try ServerKind.jackd.start()
        let port = try FreePort.udp()
        let run = try Run.start(Run.jackwave, ["--tone", "440", "--osc", "\(port)", "--no-meter"], server: server.name)
        defer { run.signal(SIGKILL) }
        let peer = try OscPeer()
        #expect(peer.status(of: port)?.arguments.first == .string("playing"))
        for value in [Double.nan, .infinity, -.infinity, 1e308] {
            peer.send("/jackwave/tone/frequency", [.float(value)], to: port)
            peer.send("/jackwave/tone/volume", [.float(value)], to: port)
        }
        #expect(peer.status(of: port) != nil)
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        for said in ["nan Hz is not a frequency", "inf Hz is not a frequency", "-inf Hz is not a frequency",
                     "1e+308 Hz is not between 0 and 24000 Hz", "nan dB is not a level", "inf dB is not a level",
                     "-inf dB is not a level", "1e+308 dB is above 0 dBFS"] {
            #expect(out.stderr.contains("OSC: /jackwave/tone/") && out.stderr.contains(said), "\(said): \(out.stderr)")
        }
        #expect(out.stderr.contains("played 440 Hz: "), "\(out.stderr)")
    }

    @Test("a 60 KB label is refused with its size; a label holding \\e]0;x\\a\\n reaches stderr escaped, on one line, and the events file exactly")
    func labels() throws {
        let server = try ServerKind.jackd.start()
        let port = try FreePort.udp()
        let events = dir + "/labels.jsonl"
        let (run, first) = try record("labels", osc: ["--osc", "\(port)"], server: server, extra: ["--events", events])
        defer { run.signal(SIGKILL) }
        let peer = try OscPeer()
        peer.send("/jackwave/marker", [.string(String(repeating: "L", count: 61_440))], to: port)
        let sly = "\u{1B}]0;x\u{07}\njackwave: error: forged"
        peer.send("/jackwave/marker", [.string(sly)], to: port)
        #expect(peer.waitForMessages(1).first?.arguments == [.int(1)], "the second is marker 1")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("OSC: /jackwave/marker: a label of 61440 bytes is longer than the 256 allowed (ignored)"), "\(out.stderr)")
        #expect(out.stderr.contains("marker 1 (\\e]0;x\\a\\njackwave: error: forged) at "), "\(out.stderr)")
        #expect(!out.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(!out.stderr.split(separator: "\n").contains { $0.hasPrefix("jackwave: error: forged") })
        #expect(out.stderr.utf8.count < 8192, "no 60 KB line")
        let marks = try EventStream.read(events).filter { $0["event"] as? String == "marker" }
        #expect(marks.map { $0["label"] as? String } == [sly])
        #expect(try SoundFile(readingFrom: first).cues.count == 1)
    }
}
