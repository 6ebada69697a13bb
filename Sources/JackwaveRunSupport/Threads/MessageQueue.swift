import Synchronization
import JackwaveVocabulary

/// Lines for the user from non-main threads (writer, JACK notifications), printed by the
/// main thread so they never tear the live meter. Never used on the realtime thread.
///
/// Bounded (`capacity` lines between two drains): past it lines are counted, and the count
/// is said in their place, so that nothing outside input provokes can grow it without end.
public final class MessageQueue: Sendable {
    public let capacity: Int
    private let lines = Mutex<(kept: [Phrase], dropped: Int)>(([], 0))

    public init(capacity: Int = 10_000) { self.capacity = capacity }

    /// Queues one line (without the `jackwave: ` prefix).
    public func post(_ line: Phrase) {
        lines.withLock { queue in
            if queue.kept.count < capacity { queue.kept.append(line) } else { queue.dropped += 1 }
        }
    }

    /// Takes every queued line, oldest first (and a line counting those past the bound).
    public func drain() -> [Phrase] {
        lines.withLock { queue in
            defer { queue = ([], 0) }
            return queue.kept + (queue.dropped > 0 ? ["\(queue.dropped) more line(s) not shown (more than \(capacity) waited)"] : [])
        }
    }
}
