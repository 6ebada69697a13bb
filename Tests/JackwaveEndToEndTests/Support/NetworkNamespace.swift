import Foundation
import JackwaveTestSupport
import Synchronization

/// Two hosts for the tests, each a network namespace of its own, joined by a veth pair:
/// `jackwaveSide` (192.0.2.1, where jackwave runs, `ip netns exec`) and `peerSide`
/// (192.0.2.2, where the test's peers make their sockets). Both are private: the addresses
/// (TEST-NET-1, RFC 5737) never exist in the machine's own namespace, and nothing is sent
/// anywhere else. A JACK server is still reached from inside: its sockets are files.
///
/// Needs root (CAP_NET_ADMIN), as the tests run; `available` says whether this machine can.
final class NetworkNamespaces: @unchecked Sendable {
    let jackwaveSide: String
    let peerSide: String
    static let jackwaveAddress = "192.0.2.1"
    static let peerAddress = "192.0.2.2"

    /// Whether namespaces can be made here (root, `ip` present).
    static let available: Bool = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip")

    private static let counter = NSLock()
    nonisolated(unsafe) private static var made = 0

    init() throws {
        Self.counter.lock()
        Self.made += 1
        let tag = "\(getpid())x\(Self.made)"  // the reaper (scripts/reap-tests) reads the pid back
        Self.counter.unlock()
        jackwaveSide = "jwa\(tag)"
        peerSide = "jwb\(tag)"
        let (a, b) = ("jwa\(tag)", "jwb\(tag)")   // interface names, at most 15 bytes
        for command in [["netns", "add", jackwaveSide], ["netns", "add", peerSide],
                        ["link", "add", a, "netns", jackwaveSide, "type", "veth", "peer", "name", b, "netns", peerSide],
                        ["-n", jackwaveSide, "addr", "add", Self.jackwaveAddress + "/24", "dev", a],
                        ["-n", peerSide, "addr", "add", Self.peerAddress + "/24", "dev", b],
                        ["-n", jackwaveSide, "link", "set", a, "up"], ["-n", peerSide, "link", "set", b, "up"],
                        ["-n", jackwaveSide, "link", "set", "lo", "up"], ["-n", peerSide, "link", "set", "lo", "up"]] {
            let out = try Run.tool("/usr/sbin/ip", command, server: nil, timeout: 30)
            guard out.status == 0 else {
                remove()
                throw TestFailure("ip \(command.joined(separator: " ")): \(out.stderr)")
            }
        }
    }

    deinit { remove() }

    /// Deleting the namespaces deletes the veth pair with them.
    private func remove() {
        for ns in [jackwaveSide, peerSide] { _ = try? Run.tool("/usr/sbin/ip", ["netns", "del", ns], server: nil, timeout: 30) }
    }

    /// The arguments that run `program` inside the jackwave side: `ip netns exec NS program …`
    /// (it execs in place, so the pid is the program's).
    func onJackwaveSide(_ program: String, _ arguments: [String]) -> (String, [String]) {
        ("/usr/sbin/ip", ["netns", "exec", jackwaveSide, program] + arguments)
    }

    /// Runs `body` on a thread of its own that has joined the peer side's network namespace
    /// (`setns`, which moves only the calling thread): sockets it makes live there, whichever
    /// thread uses them afterwards.
    func onPeerSide<T>(_ body: @escaping @Sendable () throws -> T) throws -> T { try inside(peerSide, body) }

    /// The same on the jackwave side (a peer on its loopback, which only it can reach).
    func onJackwaveSide<T>(_ body: @escaping @Sendable () throws -> T) throws -> T { try inside(jackwaveSide, body) }

    private func inside<T>(_ namespace: String, _ body: @escaping @Sendable () throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let path = "/var/run/netns/\(namespace)"
        Thread.detachNewThread {
            defer { done.signal() }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0, Self.setns(fd, Self.newNetworkNamespace) == 0 else {
                result.withLock { $0 = .failure(TestFailure("setns \(path): \(String(cString: strerror(errno)))")) }
                return
            }
            close(fd)
            // This thread stays in the namespace and ends here.
            result.withLock { $0 = Result { try body() } }
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// `CLONE_NEWNET` (linux/sched.h), which Swift's Glibc module does not carry either.
    private static let newNetworkNamespace: Int32 = 0x4000_0000

    /// glibc's `setns(2)`, which Swift's Glibc module leaves out (it is `_GNU_SOURCE`).
    private static let setns: @convention(c) (Int32, Int32) -> Int32 = {
        unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setns"), to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()
}

/// A UDP socket of the test's own, for what a peer does beyond `OscListener`: sending bytes
/// connected, to see the kernel refuse them (`ECONNREFUSED`: nothing listens there).
enum UDPProbe {
    /// Sends `bytes` to `host:port` from a connected socket made by `make` (in a namespace, if
    /// it was made there), and waits up to `timeout` for the kernel to say nobody listens.
    /// True when it said so (an ICMP port unreachable came back).
    static func isRefused(_ bytes: [UInt8], host: String, port: Int, socket fd: Int32, timeout: Double = 10) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return false }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(timeout * 1000)) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) < 0 && errno == ECONNREFUSED
    }

    /// The IPv4 UDP socket bound to `port` in this namespace, from `/proc/net/udp`: the bytes
    /// waiting in its receive queue and the datagrams the kernel dropped for want of room.
    static func queue(ofPort port: Int) -> (waiting: Int, drops: Int)? {
        let table = (try? String(contentsOfFile: "/proc/net/udp", encoding: .utf8)) ?? ""
        let hexPort = ":" + String(format: "%04X", port)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 13, fields[1].hasSuffix(hexPort) else { continue }
            let queues = fields[4].split(separator: ":")
            guard queues.count == 2, let waiting = Int(queues[1], radix: 16), let drops = Int(fields[12]) else { continue }
            return (waiting, drops)
        }
        return nil
    }

    /// A plain IPv4 UDP socket, bound to `host` on a port the system chooses.
    static func socket(boundTo host: String) -> Int32 {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, host, &address.sin_addr)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return fd
    }

    /// Sends `payload` to 127.0.0.1:`port` as if from 127.0.0.1:`sourcePort` (a port another
    /// program holds): a raw socket (root) with a UDP header of the test's making, checksum 0
    /// ("none", which IPv4 allows). How a forged sender looks to jackwave.
    static func forge(_ payload: [UInt8], from sourcePort: Int, to port: Int) -> Bool {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_RAW.rawValue), Int32(IPPROTO_UDP))
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let length = 8 + payload.count
        var datagram: [UInt8] = [UInt8(sourcePort >> 8), UInt8(sourcePort & 0xff), UInt8(port >> 8), UInt8(port & 0xff),
                                 UInt8(length >> 8), UInt8(length & 0xff), 0, 0]
        datagram += payload
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let sent = datagram.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return sent == datagram.count
    }
}
