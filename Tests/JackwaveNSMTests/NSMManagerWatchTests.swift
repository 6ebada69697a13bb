import Glibc
@testable import JackwaveNSM
import JackwaveUnattended
import Testing

/// How jackwave knows its session manager is gone when the manager is not its parent: the
/// socket on the manager's port is not the one it announced itself to.
@Suite("The session manager's watch")
struct NSMManagerWatchTests {
    /// A UDP socket bound to 127.0.0.1 at `port` (0: any), and its port.
    func bound(port: UInt16 = 0) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        try #require(ok == 0, "bind: \(String(cString: strerror(errno)))")
        var found = sockaddr_in()
        var length = size
        _ = withUnsafeMutablePointer(to: &found) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, UInt16(bigEndian: found.sin_port))
    }

    @Test("another socket bound to the manager's freed port is the manager gone; its own socket is not")
    func anotherSocketOnThePort() throws {
        let manager = try bound()
        let watch = NSMManagerWatch(manager: try #require(OscSocketAddress(host: "127.0.0.1", port: Int(manager.port))))
        #expect(watch.check(sockets: true) == nil)
        close(manager.fd)
        let forger = try bound(port: manager.port)
        defer { close(forger.fd) }
        #expect(watch.check(sockets: true) == .socketChanged)
        // Said once: gone for good.
        #expect(watch.check(sockets: true) == nil && watch.lost == .socketChanged)
    }

    @Test("the sockets on a port are read from /proc/net/udp's rows, by their local port in hexadecimal")
    func tableRows() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
             8305: 0100007F:8949 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 480037 2 00000000218afd14 0
             9062: 00000000:4C3E 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 480028 2 000000006b88079a 0
            11953: 0100007F:4C3E 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 480165 2 000000006cf3392b 0

            """
        #expect(NSMManagerWatch.inodes(in: Array(table.utf8), port: 0x4C3E) == [480028, 480165])
        #expect(NSMManagerWatch.inodes(in: Array(table.utf8), port: 1).isEmpty)
    }
}
