import Foundation

/// Ports for a test's servers and listeners, from the kernel: bound to port 0 on loopback,
/// the port it gave read back, the socket closed. End-to-end suites run two at a time
/// (scripts/test), so a fixed or random port could be another suite's.
public enum FreePort {
    /// A UDP port nothing is bound to now (OSC).
    public static func udp() throws -> Int { try port(type: SOCK_DGRAM) }

    /// A TCP port nothing listens on now (Icecast, HTTP).
    public static func tcp() throws -> Int { try port(type: SOCK_STREAM) }

    private static func port(type: __socket_type) throws -> Int {
        let fd = socket(AF_INET, Int32(type.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("no socket: \(String(cString: strerror(errno)))") }
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
}
