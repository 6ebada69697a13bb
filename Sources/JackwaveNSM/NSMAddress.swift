import Glibc
import JackwaveUnattended

/// Where the session manager listens: `NSM_URL` (`osc.udp://HOST:PORT/`), resolved.
///
/// nsmd writes its machine's host name into the URL, which may resolve to a loopback
/// address or to one of the machine's own interface addresses. jackwave speaks NSM with its
/// own machine only: the name must resolve to an address of this machine, and jackwave then
/// talks to the manager over loopback (liblo's servers, nsmd's included, listen on every
/// address), so that its socket is never reachable from outside.
public enum NSMAddress {
    /// The manager's loopback address and port for `url`, or the one-line reason not.
    public static func resolve(_ url: String) throws(NSMClientError) -> OscSocketAddress {
        let prefix = "osc.udp://"
        guard url.hasPrefix(prefix) else {
            throw NSMClientError("NSM_URL \(url): not an osc.udp:// address (nsmd speaks UDP only)")
        }
        var rest = url.dropFirst(prefix.count)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]), (1...65535).contains(port) else {
            throw NSMClientError("NSM_URL \(url): no port")
        }
        var host = String(rest[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, host.utf8.count <= 255 else { throw NSMClientError("NSM_URL \(url): no host") }
        let addresses = resolved(host)
        guard !addresses.isEmpty else { throw NSMClientError("NSM_URL \(url): cannot resolve \(host)") }
        let own = ownAddresses()
        guard let local = addresses.first(where: { $0.isLoopback || own.contains($0.bytes) }) else {
            throw NSMClientError("NSM_URL \(url): \(host) is another machine; jackwave speaks NSM with a session manager on this machine only")
        }
        let loopback = local.family == AF_INET6 ? "::1" : "127.0.0.1"
        guard let address = OscSocketAddress(host: local.isLoopback ? local.host : loopback, port: port) else {
            throw NSMClientError("NSM_URL \(url): no loopback address")
        }
        return address
    }

    /// `getaddrinfo` for UDP: every address `host` names.
    static func resolved(_ host: String) -> [OscSocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var found: [OscSocketAddress] = []
        var entry = list
        while let e = entry {
            if let sockaddr = e.pointee.ai_addr {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: sockaddr, count: Int(e.pointee.ai_addrlen))) }
                if let address = OscSocketAddress(storage) { found.append(address) }
            }
            entry = e.pointee.ai_next
        }
        return found
    }

    /// The addresses of this machine's interfaces (`getifaddrs`), as bytes.
    static func ownAddresses() -> Set<[UInt8]> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: Set<[UInt8]> = []
        var entry = list
        while let e = entry {
            if let sockaddr = e.pointee.ifa_addr {
                let family = Int32(sockaddr.pointee.sa_family)
                let size = family == AF_INET ? MemoryLayout<sockaddr_in>.size : family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : 0
                if size > 0 {
                    var storage = sockaddr_storage()
                    withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: sockaddr, count: size)) }
                    if let address = OscSocketAddress(storage) { found.insert(address.bytes) }
                }
            }
            entry = e.pointee.ifa_next
        }
        return found
    }
}

/// Session management cannot begin: one line (exit 2 for a bad `NSM_URL`, 1 otherwise).
public struct NSMClientError: Error, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
