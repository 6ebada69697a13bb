import Glibc
import JackwaveRunSupport
import JackwaveUnattended

/// Whether the session manager jackwave announced itself to is still there. Once it is gone,
/// its UDP port is free for anyone on the machine to bind, and a message from there would
/// look like the manager's own (`NSMClient` knows its manager by address alone): so once the
/// manager is gone, nothing more from that address is obeyed, or sent to it.
///
/// Two signs, either enough:
/// - the parent process changed: managers start their clients themselves (nsmd forks and
///   execs them), so jackwave's parent is the manager, and a new parent (init, or a
///   subreaper) means it ended. Not used when jackwave was started by init already.
/// - the manager's socket changed: the UDP sockets bound to its port (`/proc/net/udp` and
///   `udp6`, by inode) are no longer those found when jackwave announced itself. This holds
///   where the manager is not the parent (a wrapper between them, `NSM_URL` set by hand),
///   and sees a socket bound in the instant between the manager's socket closing and its
///   children being given a new parent. Not used where `/proc/net` cannot be read.
public final class NSMManagerWatch {
    /// Why the manager is taken for gone.
    public enum Loss: Equatable, Sendable {
        /// The process that started jackwave ended (its pid).
        case parentEnded(pid_t)
        /// Another socket (or none) is on the manager's port.
        case socketChanged
    }

    private let parent: pid_t
    private let port: UInt16
    /// The inodes of the sockets on the manager's port at the announce; nil if none could be read.
    private let sockets: Set<UInt64>?
    /// Once found, the manager stays gone.
    public private(set) var lost: Loss?

    /// Notes the parent and the sockets on `manager`'s port now: call before the announce,
    /// while the manager is surely the one listening there.
    public init(manager: OscSocketAddress) {
        parent = getppid()
        port = UInt16(truncatingIfNeeded: manager.port)
        let found = Self.socketInodes(port: port)
        sockets = found.map { $0.isEmpty ? nil : $0 } ?? nil
    }

    /// Whether the manager is gone, by its parent and, with `sockets`, by its socket (which
    /// reads `/proc/net`: before acting on a request, and now and then). The loss the first
    /// time it is found (`lost` keeps it), nil otherwise.
    public func check(sockets checkSockets: Bool) -> Loss? {
        guard lost == nil else { return nil }
        if parent != 1 && getppid() != parent {
            lost = .parentEnded(parent)
        } else if checkSockets, let sockets, Self.socketInodes(port: port) != sockets {
            lost = .socketChanged
        }
        return lost
    }

    /// The inodes of the UDP sockets (IPv4 and IPv6) bound to `port` on any address, from
    /// `/proc/net/udp` and `/proc/net/udp6`; nil if neither can be read.
    static func socketInodes(port: UInt16) -> Set<UInt64>? {
        var found: Set<UInt64> = []
        var readAny = false
        for table in ["/proc/net/udp", "/proc/net/udp6"] {
            guard let text = ProcFile.read(table) else { continue }
            readAny = true
            found.formUnion(inodes(in: text, port: port))
        }
        return readAny ? found : nil
    }

    /// The inodes of the rows of a `/proc/net/udp` table whose local port is `port`. A row:
    /// `sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout
    /// inode …`, the local address `HEX:PORT` (the port in hexadecimal).
    static func inodes(in table: [UInt8], port: UInt16) -> Set<UInt64> {
        var found: Set<UInt64> = []
        for line in table.split(separator: UInt8(ascii: "\n")).dropFirst() {
            let fields = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
            guard fields.count > 9, let colon = fields[1].lastIndex(of: UInt8(ascii: ":")),
                  let local = UInt16(String(decoding: fields[1][(colon + 1)...], as: UTF8.self), radix: 16), local == port,
                  let inode = UInt64(String(decoding: fields[9], as: UTF8.self)) else { continue }
            found.insert(inode)
        }
        return found
    }
}
