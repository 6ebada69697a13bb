import Glibc

/// A network in CIDR notation (`--osc-allow 192.0.2.0/24`, `2001:db8::/32`; a bare address is
/// that one host): the senders it admits.
public struct OscNetwork: Sendable, Hashable, CustomStringConvertible {
    public let family: Int32
    /// The address with the bits past the prefix cleared.
    public let bytes: [UInt8]
    public let prefixLength: Int

    /// Parses `ADDRESS[/BITS]`; nil if it is not one (a name, a prefix past the address's width).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = OscSocketAddress(host: String(parts[0]), port: 0) else { return nil }
        let width = address.bytes.count * 8
        var bits = width
        if parts.count == 2 {
            guard let n = Int(parts[1]), parts[1].allSatisfy(\.isASCII), n >= 0, n <= width else { return nil }
            bits = n
        }
        self.init(family: address.family, bytes: address.bytes, prefixLength: bits)
    }

    init(family: Int32, bytes: [UInt8], prefixLength: Int) {
        self.family = family
        self.prefixLength = prefixLength
        self.bytes = bytes.enumerated().map { i, b in
            let keep = max(0, min(8, prefixLength - 8 * i))
            return keep == 8 ? b : b & ~(0xff >> keep)
        }
    }

    /// Whether `address` lies in this network (same family, same first `prefixLength` bits).
    public func contains(_ address: OscSocketAddress) -> Bool {
        guard address.family == family else { return false }
        return OscNetwork(family: family, bytes: address.bytes, prefixLength: prefixLength).bytes == bytes
    }

    /// `192.0.2.0/24`.
    public var description: String {
        "\(OscSocketAddress(family: family, bytes: bytes, port: 0).host)/\(prefixLength)"
    }
}

/// Who may send jackwave OSC messages: its own machine (loopback: 127.0.0.0/8 and ::1)
/// always, and the networks given with `--osc-allow`; every other sender is dropped, before
/// its datagram is even decoded, and counted.
public struct OscAllowList: Sendable, Equatable {
    public let networks: [OscNetwork]

    public init(_ networks: [OscNetwork] = []) { self.networks = networks }

    /// Whether `sender` may talk to jackwave.
    public func admits(_ sender: OscSocketAddress) -> Bool {
        sender.isLoopback || networks.contains { $0.contains(sender) }
    }
}
