import Foundation

/// A private Icecast 2 on 127.0.0.1, for the live stream's tests: a config written here (a
/// port of its own, logs and nothing else in a temporary folder), started, stopped and
/// started again on the same port. As root it drops to `nobody` (Icecast refuses to run as
/// root); as anyone else it runs as that user.
final class IcecastServer: @unchecked Sendable {
    let port: Int
    let sourcePassword = "jw-source-\(UInt32.random(in: 0...UInt32.max))"
    let directory: String
    private var process: Run.Running?

    /// `sourceTimeout`: seconds Icecast waits for a source that sends nothing before it drops
    /// it; `burst`: whether a new listener first gets the last 64 KB (older audio) at once.
    init(sourceTimeout: Int = 10, burst: Bool = true) throws {
        directory = temporaryDirectory()
        port = try Self.freePort()
        let logs = directory + "/log"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        let root = getuid() == 0
        if root { chmod(logs, 0o777) }
        let config = """
        <icecast>
          <location>jackwave test</location><admin>test@localhost</admin>
          <limits><clients>8</clients><sources>2</sources><queue-size>524288</queue-size><client-timeout>30</client-timeout>
            <header-timeout>15</header-timeout><source-timeout>\(sourceTimeout)</source-timeout><burst-on-connect>\(burst ? 1 : 0)</burst-on-connect>
            <burst-size>\(burst ? 65535 : 0)</burst-size></limits>
          <authentication><source-password>\(sourcePassword)</source-password><relay-password>\(sourcePassword)-relay</relay-password>
            <admin-user>admin</admin-user><admin-password>\(sourcePassword)-admin</admin-password></authentication>
          <hostname>127.0.0.1</hostname>
          <listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
          <fileserve>0</fileserve>
          <paths><basedir>/usr/share/icecast2</basedir><logdir>\(logs)</logdir><webroot>/usr/share/icecast2/web</webroot>
            <adminroot>/usr/share/icecast2/admin</adminroot></paths>
          <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
          <security><chroot>0</chroot>\(root ? "<changeowner><user>nobody</user><group>nogroup</group></changeowner>" : "")</security>
        </icecast>
        """
        try config.write(toFile: directory + "/icecast.xml", atomically: true, encoding: .utf8)
        try start()
    }

    deinit { stop() }

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
    var isListening: Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Starts Icecast and waits until it listens.
    func start() throws {
        let started = try Run.start("/usr/bin/icecast2", ["-c", directory + "/icecast.xml"], server: nil)
        process = started
        guard waitUntil(timeout: 30, { isListening || !started.isRunning }), started.isRunning else {
            throw TestFailure("icecast2 did not listen on \(port): \(started.stderrSoFar) \(started.stdoutSoFar)")
        }
    }

    /// Stops it (SIGTERM) and waits until it no longer listens.
    func stop() {
        guard let process else { return }
        process.signal(SIGTERM)
        _ = process.finish(timeout: 10)
        self.process = nil
        _ = waitUntil(timeout: 10) { !isListening }
    }

    /// The listener's URL of `mount`.
    func url(_ mount: String) -> String { "http://127.0.0.1:\(port)\(mount)" }

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
