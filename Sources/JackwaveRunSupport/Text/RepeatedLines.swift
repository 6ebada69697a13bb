import JackwaveVocabulary

/// Lines that outside input can make by the thousand (an unknown OSC message, a refused
/// sender): the first of each kind is said, the ones after it within `interval` seconds are
/// only counted, and the count is said once the interval is over (`… 4999 more like it in
/// 10 s`), as syslog says "last message repeated". A flood thus costs the journal two lines
/// per kind and interval, and nothing is lost silently.
///
/// Bounded whatever comes in: at most `maximumKinds` kinds are told apart; the rest share
/// one (`other`). Not thread-safe: one owner (the main loop) posts and flushes.
public struct RepeatedLines: Sendable {
    /// Seconds during which a kind's repeats are counted, not said.
    public let interval: Double
    public let maximumKinds: Int
    /// Per kind: when its interval began, and the repeats counted since.
    private var kinds: [String: (since: Double, repeats: Int)] = [:]
    /// Kinds in the order first seen, so the summaries come out in a stable order.
    private var order: [String] = []

    public init(interval: Double = 10, maximumKinds: Int = 32) {
        self.interval = interval
        self.maximumKinds = maximumKinds
    }

    /// `line`, of `kind`, at `now` (seconds, any monotonic clock): the lines to say now,
    /// which are this line if its kind is not within an interval, and any summaries due.
    public mutating func post(_ line: Phrase, kind: String, now: Double) -> [Phrase] {
        var out = flush(now: now)
        let key = kinds[kind] != nil || kinds.count < maximumKinds ? kind : Self.otherKind
        if var entry = kinds[key] {
            entry.repeats += 1
            kinds[key] = entry
        } else {
            kinds[key] = (now, 0)
            order.append(key)
            out.append(line)
        }
        return out
    }

    /// The summaries of the intervals over by `now` (every one, with `now` nil: at the end).
    public mutating func flush(now: Double?) -> [Phrase] {
        var out: [Phrase] = []
        order.removeAll { key in
            guard let entry = kinds[key] else { return true }
            guard now.map({ $0 - entry.since >= interval }) ?? true else { return false }
            kinds[key] = nil
            if entry.repeats > 0 {
                let span = now.map { " in \(Int(($0 - entry.since).rounded())) s" } ?? ""
                out.append("\(key): \(entry.repeats) more like it\(span) (not shown)")
            }
            return true
        }
        return out
    }

    /// The kind that lines of kinds beyond `maximumKinds` are counted under.
    static let otherKind = "other lines"
}
