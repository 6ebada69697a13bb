import Foundation
import JackwaveTestSupport

/// A private Icecast 2 on 127.0.0.1, for the live stream's tests: a config written here (a
/// port of its own, logs and nothing else in a temporary folder), started, stopped and
/// started again on the same port. As root it drops to `nobody` (Icecast refuses to run as
/// root); as anyone else it runs as that user. Or, given `hosts`, on the peer's side of two
/// network namespaces (`NetworkNamespaces.peerAddress`), a machine across a link from
/// jackwave's side, which a stream reaches as it would a station's server.
final class IcecastServer: @unchecked Sendable {
    let port: Int
    /// Where it listens: 127.0.0.1, or the peer's address across `hosts`.
    let host: String
    private let hosts: NetworkNamespaces?
    /// With `tls`: a second port that speaks TLS only, with a certificate made for
    /// 127.0.0.1 (`certificate`, self-signed: its own authority).
    let tlsPort: Int?
    let certificate: String?
    let sourcePassword = "jw-source-\(UInt32.random(in: 0...UInt32.max))"
    let directory: String
    /// As root, the folder is one of its own under /tmp, not under the tests' TMPDIR:
    /// scripts/test makes that 0700, and `nobody` could not reach the logs in it (Icecast
    /// then listens for a moment and exits with "could not open error logging").
    private let ownsDirectory: Bool
    private var process: Run.Running?

    /// `sourceTimeout`: seconds Icecast waits for a source that sends nothing before it drops
    /// it; `burst`: whether a new listener first gets the last 64 KB (older audio) at once.
    init(sourceTimeout: Int = 10, burst: Bool = true, tls: Bool = false, on hosts: NetworkNamespaces? = nil) throws {
        self.hosts = hosts
        host = hosts == nil ? "127.0.0.1" : NetworkNamespaces.peerAddress
        let root = getuid() == 0
        if root {
            var template = Array("/tmp/jackwave-icecast.XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp for Icecast failed") }
            directory = String(cString: made)
            chmod(directory, 0o711)
        } else {
            directory = temporaryDirectory()
        }
        ownsDirectory = root
        port = try Self.freePort()
        var tlsSocket = "", tlsPath = ""
        if tls {
            var other = try Self.freePort()
            while other == port { other = try Self.freePort() }
            tlsPort = other
            // Icecast reads the key and the certificate from one file; jackwave trusts the
            // certificate alone.
            let key = directory + "/key.pem", cert = directory + "/cert.pem", both = directory + "/icecast.pem"
            let made = try Run.tool("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                                         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                                                         "-keyout", key, "-out", cert], server: nil, timeout: 60)
            guard made.status == 0 else { throw TestFailure("openssl could not make a certificate: \(made.stderr)") }
            try (try String(contentsOfFile: key, encoding: .utf8) + String(contentsOfFile: cert, encoding: .utf8))
                .write(toFile: both, atomically: true, encoding: .utf8)
            chmod(both, 0o644)
            certificate = cert
            tlsSocket = "<listen-socket><port>\(other)</port><bind-address>127.0.0.1</bind-address><ssl>1</ssl></listen-socket>"
            tlsPath = "<ssl-certificate>\(both)</ssl-certificate>"
        } else {
            tlsPort = nil
            certificate = nil
        }
        let logs = directory + "/log"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        if root { chmod(logs, 0o777) }
        let config = """
        <icecast>
          <location>jackwave test</location><admin>test@localhost</admin>
          <limits><clients>8</clients><sources>2</sources><queue-size>524288</queue-size><client-timeout>30</client-timeout>
            <header-timeout>15</header-timeout><source-timeout>\(sourceTimeout)</source-timeout><burst-on-connect>\(burst ? 1 : 0)</burst-on-connect>
            <burst-size>\(burst ? 65535 : 0)</burst-size></limits>
          <authentication><source-password>\(sourcePassword)</source-password><relay-password>\(sourcePassword)-relay</relay-password>
            <admin-user>admin</admin-user><admin-password>\(sourcePassword)-admin</admin-password></authentication>
          <hostname>\(host)</hostname>
          <listen-socket><port>\(port)</port><bind-address>\(host)</bind-address></listen-socket>\(tlsSocket)
          <fileserve>0</fileserve>
          <paths><basedir>/usr/share/icecast2</basedir><logdir>\(logs)</logdir><webroot>/usr/share/icecast2/web</webroot>
            <adminroot>/usr/share/icecast2/admin</adminroot>\(tlsPath)</paths>
          <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
          <security><chroot>0</chroot>\(root ? "<changeowner><user>nobody</user><group>nogroup</group></changeowner>" : "")</security>
        </icecast>
        """
        try config.write(toFile: directory + "/icecast.xml", atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        stop()
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// A port nothing listens on now, from the kernel (bind to port 0 on loopback).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestFailure("no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on the port.
    var isListening: Bool { reach { fd in fd >= 0 } }

    /// Whether Icecast answers an HTTP request on the port: its admin statistics, with the
    /// admin's password, answered `200`. Listening alone is not enough: Icecast binds its
    /// port before it has dropped to `nobody`, opened its logs and started its threads, and a
    /// source that logs in meanwhile may be let in and then dropped.
    var answers: Bool {
        let credentials = Data("admin:\(sourcePassword)-admin".utf8).base64EncodedString()
        let request = "GET /admin/stats HTTP/1.0\r\nHost: \(host)\r\nAuthorization: Basic \(credentials)\r\n\r\n"
        return reach { fd in
            guard fd >= 0 else { return false }
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let bytes = Array(request.utf8)
            guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else { return false }
            var answer = [UInt8](repeating: 0, count: 64)
            let n = recv(fd, &answer, answer.count, 0)
            guard n > 0 else { return false }
            let line = String(decoding: answer[0..<n], as: UTF8.self)
            return line.hasPrefix("HTTP/1.0 200") || line.hasPrefix("HTTP/1.1 200")
        }
    }

    /// `body` with a TCP socket connected to the port (-1 if the connection failed), made
    /// where Icecast runs (on the peer's side, given `hosts`).
    private func reach(_ body: @escaping @Sendable (Int32) -> Bool) -> Bool {
        let (host, port) = (host, port)
        let attempt: @Sendable () -> Bool = {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr(host)
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            return body(connected ? fd : -1)
        }
        guard let hosts else { return attempt() }
        return (try? hosts.onPeerSide(attempt)) ?? false
    }

    /// Starts Icecast and waits until it answers HTTP and its log says it started: it binds
    /// its port before it drops to `nobody` and opens its logs, and exits if it cannot.
    func start() throws {
        let log = directory + "/log/error.log"
        let logged = (try? String(contentsOfFile: log, encoding: .utf8))?.components(separatedBy: "server started").count ?? 1
        let command = ["/usr/bin/icecast2", "-c", directory + "/icecast.xml"]
        // `ip netns exec` execs in place: the pid is Icecast's (for `pause`).
        let started = try hosts.map { try Run.start("/usr/sbin/ip", ["netns", "exec", $0.peerSide] + command, server: nil) }
            ?? Run.start(command[0], Array(command.dropFirst()), server: nil)
        process = started
        let startedNow = {
            ((try? String(contentsOfFile: log, encoding: .utf8))?.components(separatedBy: "server started").count ?? 1) > logged
        }
        guard waitUntil(timeout: 30, { (startedNow() && answers) || !started.isRunning }), started.isRunning else {
            throw TestFailure("icecast2 did not answer on \(host):\(port): \(started.stderrSoFar) \(started.stdoutSoFar)")
        }
    }

    /// Stops it in its tracks (SIGSTOP): it keeps its sockets and reads none of them, as a
    /// hung server would; the kernel queues what is sent until its buffers are full.
    func pause() { process?.signal(SIGSTOP) }

    /// Lets a paused server run again (SIGCONT).
    func resume() { process?.signal(SIGCONT) }

    /// Stops it (SIGTERM) and waits until it no longer listens.
    func stop() {
        guard let process else { return }
        // A paused process takes SIGTERM only once it runs.
        process.signal(SIGCONT)
        process.signal(SIGTERM)
        _ = process.finish(timeout: 10)
        self.process = nil
        _ = waitUntil(timeout: 10) { !isListening }
    }

    /// The listener's URL of `mount`.
    func url(_ mount: String) -> String { "http://\(host):\(port)\(mount)" }

    /// Listens to `mount` with ffmpeg for `seconds` and returns its first channel, decoded to
    /// 48 kHz floats.
    func listen(_ mount: String, seconds: Double) throws -> [Float] {
        let out = directory + "/heard-\(UUID().uuidString).f32"
        let run = try Run.tool("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-i", url(mount), "-t", "\(seconds)",
                                                   "-af", "pan=mono|c0=c0", "-ar", "48000", "-f", "f32le", "-y", out],
                               server: nil, timeout: 60)
        guard run.status == 0 else { throw TestFailure("ffmpeg could not read \(url(mount)): \(run.stderr)") }
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
