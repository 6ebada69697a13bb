import Synchronization

/// Lines for the user from non-main threads (writer, JACK notifications), printed by the
/// main thread so they never tear the live meter. Never used on the realtime thread.
public final class MessageQueue: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    /// Queues one line (without the `jackwave: ` prefix).
    public func post(_ line: String) { lines.withLock { $0.append(line) } }

    /// Takes every queued line, oldest first.
    public func drain() -> [String] { lines.withLock { l in defer { l.removeAll() }; return l } }
}
