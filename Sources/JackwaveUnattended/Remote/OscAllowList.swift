import Glibc

/// A network in CIDR notation (`--osc-allow 192.0.2.0/24`, `2001:db8::/32`; a bare address is
/// that one host): the senders it admits.
public struct OscNetwork: Sendable, Hashable, CustomStringConvertible {
    public let family: Int32
    /// The address with the bits past the prefix cleared.
    public let bytes: [UInt8]
    public let prefixLength: Int

    /// Parses `ADDRESS[/BITS]`, BITS in decimal digits; nil if it is not one. An IPv4-mapped
    /// network (`::ffff:192.0.2.0/120`) becomes the IPv4 one it stands for, as senders are
    /// compared as IPv4 once `::ffff:` is taken off (`OscSocketAddress`); one shorter than the
    /// mapped range (`/96`) would take in addresses that are not IPv4: nil.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let address = OscSocketAddress(host: String(first), port: 0) else { return nil }
        let width = address.bytes.count * 8
        var bits = width
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ ("0"..."9").contains($0) }),
                  let n = Int(digits), n <= width else { return nil }
            bits = n
        }
        let mapped = address.family == AF_INET6 && address.bytes.prefix(10).allSatisfy { $0 == 0 }
            && address.bytes.dropFirst(10).prefix(2).allSatisfy { $0 == 0xff }
        if mapped {
            guard bits >= 96 else { return nil }
            self.init(family: AF_INET, bytes: Array(address.bytes.suffix(4)), prefixLength: bits - 96)
        } else {
            self.init(family: address.family, bytes: address.bytes, prefixLength: bits)
        }
    }

    /// Whether it admits every sender of its family (`0.0.0.0/0`, `::/0`).
    public var isEveryone: Bool { prefixLength == 0 }

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
