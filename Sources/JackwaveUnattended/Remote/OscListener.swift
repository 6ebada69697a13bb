import Dispatch
import Glibc
import JackwaveRunSupport
import Synchronization

/// `--osc`: jackwave's UDP sockets for Open Sound Control, and the thread that reads them.
///
/// Its own sockets, bound to exactly the addresses asked for (`OscBinding`); liblo only
/// decodes (`OscDecoder`). A sender not admitted (`OscAllowList`) is counted and dropped
/// undecoded; admitted messages go to a bounded inbox (`OscInbox`) that the main loop drains,
/// so nothing here touches the run. Create it while SIGINT and SIGTERM are held on the
/// calling thread (`SignalTrap`), so that its thread inherits them blocked.
public final class OscListener: @unchecked Sendable {
    /// Where it listens, with the port the system chose if 0 was asked for.
    public let binding: OscBinding
    public let allowed: OscAllowList
    public let inbox: OscInbox
    /// The reading thread's state; the thread keeps it alive until it has ended.
    private let receiver: Receiver
    private let stopped = DispatchSemaphore(value: 0)

    /// Binds `binding`'s addresses and starts reading. `stamp` (on the listener thread, for
    /// each datagram) is the frame the callback has reached, for `OscMessage.streamFrame`.
    public init(binding: OscBinding, allowed: OscAllowList = OscAllowList(), inbox: OscInbox = OscInbox(),
                stamp: @escaping @Sendable () -> Int64? = { nil }) throws(OscListenerError) {
        var sockets: [(fd: Int32, family: Int32)] = []
        var port = binding.port
        var bound: [OscSocketAddress] = []
        do throws(OscListenerError) {
            for (i, address) in binding.addresses.enumerated() {
                let optional = i > 0 && binding.addresses.count > 1 && address.isLoopback && address.family == AF_INET6
                guard let fd = try Self.bind(address.with(port: port), optional: optional) else { continue }
                sockets.append((fd, address.family))
                if port == 0 { port = Self.boundPort(fd) }
                bound.append(address.with(port: port))
            }
        } catch {
            for (fd, _) in sockets { close(fd) }
            throw error
        }
        guard let decoder = OscDecoder() else {
            for (fd, _) in sockets { close(fd) }
            throw OscListenerError(message: "cannot make liblo's decoder (a private folder in $TMPDIR or /tmp)")
        }
        var wake: [Int32] = [-1, -1]
        guard pipe(&wake) == 0 else {
            for (fd, _) in sockets { close(fd) }
            throw OscListenerError(message: "cannot make a pipe (\(String(cString: strerror(errno))))")
        }
        for fd in wake {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        self.binding = OscBinding(addresses: bound, port: port)
        self.allowed = allowed
        self.inbox = inbox
        receiver = Receiver(sockets: sockets, wake: wake, decoder: decoder, allowed: allowed, inbox: inbox, stamp: stamp)
        let receiver = self.receiver, stopped = self.stopped
        guard DetachedThread.start({
            receiver.run()
            stopped.signal()
        }) else {
            receiver.closeAll()
            throw OscListenerError(message: "cannot start its thread")
        }
    }

    /// Stops the thread (a byte down its wake-up pipe) and closes the sockets.
    deinit {
        receiver.wakeUp()
        stopped.wait()
        receiver.closeAll()
    }

    /// Datagrams from senders not admitted, since the start.
    public var refused: Int { receiver.refused.load(ordering: .relaxed) }
    /// Datagrams too large or refused by liblo, since the start.
    public var malformed: Int { receiver.malformed.load(ordering: .relaxed) }

    /// The senders refused since the last call, with how many datagrams each (at most
    /// `Receiver.maximumSenders` told apart; the rest as "other senders").
    public func takeRefusedSenders() -> [(sender: String, datagrams: Int)] {
        receiver.refusedSenders.withLock { tally in
            defer { tally.removeAll() }
            return tally.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    /// Sends `message` from the socket of `peer`'s family (so it comes from the port the
    /// peer wrote to); false if it could not be encoded or sent. Any thread.
    @discardableResult
    public func send(_ message: OscOutgoing, to peer: OscSocketAddress) -> Bool {
        guard let bytes = message.datagram else { return false }
        return send(datagram: bytes, to: peer)
    }

    /// Sends bytes already encoded (`OscOutgoing.datagram`, `.bundle`) the same way.
    @discardableResult
    public func send(datagram bytes: [UInt8], to peer: OscSocketAddress) -> Bool {
        guard let socket = receiver.sockets.first(where: { $0.family == peer.family }) else { return false }
        return peer.withSockaddr { address, length in
            bytes.withUnsafeBytes { sendto(socket.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT), address, length) == $0.count }
        }
    }

    /// `socket(SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK)` and `bind`; an IPv6 socket takes
    /// IPv6 only (`IPV6_V6ONLY`), so `[::1]` is never also `127.0.0.1`'s. Nil for the
    /// second address of the loopback pair when this machine has no IPv6.
    private static func bind(_ address: OscSocketAddress, optional: Bool) throws(OscListenerError) -> Int32? {
        let fd = socket(address.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else {
            if optional && errno == EAFNOSUPPORT { return nil }
            throw OscListenerError(message: "\(address): cannot make a socket (\(String(cString: strerror(errno))))")
        }
        if address.family == AF_INET6 {
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        let rc = address.withSockaddr { Glibc.bind(fd, $0, $1) }
        guard rc == 0 else {
            let code = errno
            close(fd)
            if optional && (code == EADDRNOTAVAIL || code == EAFNOSUPPORT) { return nil }
            let why = code == EADDRINUSE ? "the port is in use" : code == EADDRNOTAVAIL ? "this machine has no such address"
                : String(cString: strerror(code))
            throw OscListenerError(message: "cannot listen on UDP \(address) (\(why))")
        }
        return fd
    }

    /// `getsockname`: the port a socket bound to port 0 got.
    private static func boundPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        return ok ? OscSocketAddress(storage)?.port ?? 0 : 0
    }

    /// What the listener thread owns: the sockets, the decoder, the counters.
    final class Receiver: @unchecked Sendable {
        let sockets: [(fd: Int32, family: Int32)]
        private let wake: [Int32]
        private let decoder: OscDecoder
        private let allowed: OscAllowList
        private let inbox: OscInbox
        private let stamp: @Sendable () -> Int64?
        /// Counters the main loop reads (relaxed: lone counters).
        let refused = Atomic<Int>(0)
        let malformed = Atomic<Int>(0)
        /// Refused senders by address, for the lines; bounded.
        let refusedSenders = Mutex<[String: Int]>([:])
        static let maximumSenders = 16
        /// The largest UDP payload; one byte more tells a truncated datagram (`MSG_TRUNC`).
        static let bufferBytes = 65536
        /// Datagrams read from one socket before the others get a turn.
        static let burst = 64

        init(sockets: [(fd: Int32, family: Int32)], wake: [Int32], decoder: OscDecoder, allowed: OscAllowList,
             inbox: OscInbox, stamp: @escaping @Sendable () -> Int64?) {
            self.sockets = sockets
            self.wake = wake
            self.decoder = decoder
            self.allowed = allowed
            self.inbox = inbox
            self.stamp = stamp
        }

        func wakeUp() { var byte: UInt8 = 1; _ = write(wake[1], &byte, 1) }

        func closeAll() {
            for (fd, _) in sockets { close(fd) }
            close(wake[0])
            close(wake[1])
        }

        /// `poll` on the sockets and the wake-up pipe; reads, checks, decodes, posts.
        func run() {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferBytes, alignment: 16)
            defer { buffer.deallocate() }
            var fds = sockets.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) } + [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
            while true {
                let n = poll(&fds, nfds_t(fds.count), -1)
                if n < 0 { if errno == EINTR { continue } else { return } }
                if fds[fds.count - 1].revents != 0 { return }
                for i in 0..<sockets.count where fds[i].revents != 0 { readBurst(sockets[i].fd, into: buffer) }
            }
        }

        /// Up to `burst` datagrams from `fd`, until it has none.
        private func readBurst(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) {
            for _ in 0..<Self.burst {
                var storage = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let size = withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT | MSG_TRUNC), $0, &length)
                    }
                }
                if size < 0 { return }
                guard let sender = OscSocketAddress(storage) else { continue }
                guard allowed.admits(sender) else {
                    refused.add(1, ordering: .relaxed)
                    refusedSenders.withLock { tally in
                        let key = tally[sender.host] != nil || tally.count < Self.maximumSenders ? sender.host : "other senders"
                        tally[key, default: 0] += 1
                    }
                    continue
                }
                guard size <= buffer.count else { malformed.add(1, ordering: .relaxed); continue }
                let decoded = decoder.decode(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size]), limit: inbox.capacity)
                if decoded.malformed { malformed.add(1, ordering: .relaxed) }
                if decoded.dropped > 0 { inbox.overflowed.add(decoded.dropped, ordering: .relaxed) }
                let frame = decoded.messages.isEmpty ? nil : stamp()
                for message in decoded.messages {
                    inbox.post(OscMessage(path: message.path, arguments: message.arguments, sender: sender, streamFrame: frame))
                }
            }
        }
    }
}

/// `--osc` cannot listen: one line (exit 1, before any file is created).
public struct OscListenerError: Error, Equatable {
    public let message: String
}
