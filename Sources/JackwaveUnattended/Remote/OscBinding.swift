import Glibc

/// Where `--osc` listens: `--osc PORT` on this machine's loopback addresses only
/// (127.0.0.1 and ::1), `--osc ADDR:PORT` (`[ADDR]:PORT` for IPv6) on that one address,
/// `0.0.0.0:PORT` or `[::]:PORT` on every address. Who may send is `OscAllowList`'s
/// business: listening on a network address admits nobody by itself.
public struct OscBinding: Sendable, Equatable, CustomStringConvertible {
    /// The addresses bound, each with `port`.
    public let addresses: [OscSocketAddress]
    public let port: Int

    /// `PORT`: 127.0.0.1 and ::1.
    public static func loopback(port: Int) -> OscBinding {
        OscBinding(addresses: [OscSocketAddress(host: "127.0.0.1", port: port)!, OscSocketAddress(host: "::1", port: port)!],
                   port: port)
    }

    init(addresses: [OscSocketAddress], port: Int) {
        self.addresses = addresses
        self.port = port
    }

    /// `PORT`, `ADDR:PORT` or `[ADDR]:PORT`, with a numeric address and a port in
    /// `ports`; nil otherwise.
    public static func parse(_ text: String, ports: ClosedRange<Int> = 1...65535) -> OscBinding? {
        if let port = Int(text), text.allSatisfy(\.isASCII) { return ports.contains(port) ? loopback(port: port) : nil }
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText), portText.allSatisfy(\.isASCII), ports.contains(port),
              let address = OscSocketAddress(host: String(host), port: port) else { return nil }
        // A bracketed address is IPv6, a bare one IPv4 (`::1:9000` would be ambiguous).
        guard (address.family == AF_INET6) == text.hasPrefix("[") else { return nil }
        return OscBinding(addresses: [address], port: port)
    }

    /// Whether only this machine can reach it.
    public var isLoopbackOnly: Bool { addresses.allSatisfy(\.isLoopback) }

    /// `127.0.0.1:9000 and [::1]:9000`.
    public var description: String { addresses.map(\.description).joined(separator: " and ") }
}
