import Foundation
import JackwaveTestSupport
import JackwaveHost
import JackwaveUnattended

/// The other end of jackwave's OSC: a listener of its own (jackwave's `OscListener`, liblo
/// underneath) that sends requests from its port and collects what comes back.
final class OscPeer: @unchecked Sendable {
    let listener: OscListener
    private var collected: [OscMessage] = []

    /// Listens on `host` (on `port`, or one the system chooses) and admits any sender: a
    /// peer is the test's, and it must hear jackwave from whichever address jackwave sends.
    init(host: String = "127.0.0.1", port: Int = 0) throws {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        guard let binding = OscBinding.parse(address, ports: 0...65535), let any = OscNetwork("0.0.0.0/0") else {
            throw TestFailure("no binding for \(host)")
        }
        listener = try OscListener(binding: binding, allowed: OscAllowList([any]))
    }

    var port: Int { listener.binding.port }

    /// Sends `path` with `arguments` to `host:port`.
    @discardableResult
    func send(_ path: String, _ arguments: [OscArgument] = [], to port: Int, host: String = "127.0.0.1") -> Bool {
        guard let address = OscSocketAddress(host: host, port: port) else { return false }
        return listener.send(OscOutgoing(path: path, arguments: arguments), to: address)
    }

    /// Sends a datagram of the test's making (a bundle) from this peer's port.
    @discardableResult
    func send(datagram: [UInt8], to port: Int, host: String = "127.0.0.1") -> Bool {
        guard let address = OscSocketAddress(host: host, port: port) else { return false }
        return listener.send(datagram: datagram, to: address)
    }

    /// Every message received so far.
    var received: [OscMessage] {
        collected += listener.inbox.drain()
        return collected
    }

    /// Waits (at most `timeout` s) until `count` messages have come; returns what came.
    func waitForMessages(_ count: Int, timeout: Double = 20) -> [OscMessage] {
        _ = waitUntil(timeout: timeout) { received.count >= count }
        return received
    }

    /// `/jackwave/status` to `port`, again every 0.2 s until a reply comes (a loaded jackwave
    /// may have had its inbox full or its replies spent): the fence that says jackwave has
    /// handled everything sent before. The reply, or nil after `timeout`.
    func status(of port: Int, host: String = "127.0.0.1", timeout: Double = 30) -> OscMessage? {
        let before = received.count
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            send("/jackwave/status", to: port, host: host)
            if waitUntil(timeout: 0.2, { received.count > before }) {
                return received[before...].first { $0.path == "/jackwave/reply/status" }
            }
        }
        return nil
    }
}
