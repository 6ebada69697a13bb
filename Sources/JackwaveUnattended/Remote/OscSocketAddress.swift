import Glibc

/// An IPv4 or IPv6 address and UDP port: where jackwave listens for OSC, and who sent a
/// datagram. Numeric only (`inet_pton`/`inet_ntop`): jackwave never resolves a name, so a
/// listening address means exactly what it says.
public struct OscSocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// `AF_INET` or `AF_INET6`.
    public let family: Int32
    /// The address's bytes in network order: 4 for IPv4, 16 for IPv6.
    public let bytes: [UInt8]
    public let port: Int

    /// A numeric address (`127.0.0.1`, `::1`, `0.0.0.0`, `::`) and a port; nil if `host` is
    /// no such address.
    public init?(host: String, port: Int) {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            self.init(family: AF_INET, bytes: withUnsafeBytes(of: v4) { Array($0) }, port: port)
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            self.init(family: AF_INET6, bytes: withUnsafeBytes(of: v6) { Array($0) }, port: port)
        } else {
            return nil
        }
    }

    init(family: Int32, bytes: [UInt8], port: Int) {
        self.family = family
        self.bytes = bytes
        self.port = port
    }

    /// The sender of a datagram, as `recvfrom` gave it; an IPv4 address an IPv6 socket shows
    /// as `::ffff:a.b.c.d` is taken as the IPv4 address it is. Nil for another family.
    public init?(_ storage: sockaddr_storage) {
        var copy = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let v4 = withUnsafeBytes(of: &copy) { $0.load(as: sockaddr_in.self) }
            self.init(family: AF_INET, bytes: withUnsafeBytes(of: v4.sin_addr) { Array($0) }, port: Int(UInt16(bigEndian: v4.sin_port)))
        case AF_INET6:
            let v6 = withUnsafeBytes(of: &copy) { $0.load(as: sockaddr_in6.self) }
            let bytes = withUnsafeBytes(of: v6.sin6_addr) { Array($0) }
            let port = Int(UInt16(bigEndian: v6.sin6_port))
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
                self.init(family: AF_INET, bytes: Array(bytes[12...]), port: port)
            } else {
                self.init(family: AF_INET6, bytes: bytes, port: port)
            }
        default:
            return nil
        }
    }

    /// The same address on another port.
    public func with(port: Int) -> OscSocketAddress { OscSocketAddress(family: family, bytes: bytes, port: port) }

    /// `127.0.0.0/8` or `::1`.
    public var isLoopback: Bool {
        family == AF_INET ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
    }

    /// `0.0.0.0` or `::`: every address of the machine.
    public var isWildcard: Bool { bytes.allSatisfy { $0 == 0 } }

    /// The address alone, as `inet_ntop` writes it.
    public var host: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        bytes.withUnsafeBytes { _ = inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `127.0.0.1:9000`, `[::1]:9000`.
    public var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Calls `body` with this address as a `sockaddr` and its length, for `bind` and `sendto`.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        if family == AF_INET {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = UInt16(port).bigEndian
            withUnsafeMutableBytes(of: &a.sin_addr) { $0.copyBytes(from: bytes) }
            return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        var a = sockaddr_in6()
        a.sin6_family = sa_family_t(AF_INET6)
        a.sin6_port = UInt16(port).bigEndian
        withUnsafeMutableBytes(of: &a.sin6_addr) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
    }
}
