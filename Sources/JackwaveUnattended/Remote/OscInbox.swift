import Synchronization

/// A message from an admitted sender, as the listener thread received it.
public struct OscMessage: Sendable, Equatable {
    public let path: String
    public let arguments: [OscArgument]
    public let sender: OscSocketAddress
    /// The frame the callback had reached when it arrived (`OscListener`'s stamp), so that a
    /// marker or a split lands where it was asked for, not where the main loop got to it;
    /// nil when no connection ran.
    public let streamFrame: Int64?

    public init(path: String, arguments: [OscArgument], sender: OscSocketAddress, streamFrame: Int64? = nil) {
        self.path = path
        self.arguments = arguments
        self.sender = sender
        self.streamFrame = streamFrame
    }
}

/// The messages between liblo's decoding (the listener thread) and what acts on them (the
/// main loop, `RemoteControl.pump`): bounded, so that a flood costs a fixed amount of memory
/// whatever the main loop is doing (waiting for a server included); what does not fit is
/// counted, never kept.
public final class OscInbox: Sendable {
    /// Messages held at most: a main-loop pass (at most 0.5 s, waiting for a server) of a
    /// remote that sends a few hundred a second.
    public let capacity: Int
    private let messages = Mutex<[OscMessage]>([])
    /// Messages that found the inbox full, since the start (relaxed: a lone counter).
    public let overflowed = Atomic<Int>(0)

    public init(capacity: Int = 256) {
        self.capacity = capacity
        messages.withLock { $0.reserveCapacity(capacity) }
    }

    /// Adds `message`; false (and counted) if the inbox is full. Listener thread.
    @discardableResult
    public func post(_ message: OscMessage) -> Bool {
        let kept = messages.withLock { list in
            guard list.count < capacity else { return false }
            list.append(message)
            return true
        }
        if !kept { overflowed.add(1, ordering: .relaxed) }
        return kept
    }

    /// Takes every message, oldest first. Main thread.
    public func drain() -> [OscMessage] {
        messages.withLock { list in
            defer { list.removeAll(keepingCapacity: true) }
            return list
        }
    }
}
