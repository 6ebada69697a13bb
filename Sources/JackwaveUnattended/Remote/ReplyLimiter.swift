/// How many OSC replies jackwave sends: a token bucket, `burst` at once and `perSecond` after.
/// A reply goes to the address a datagram claims, which UDP does not check: unbounded, one
/// forged bundle would bring thousands of replies down on whoever it names. Replies past the
/// bound are counted, not sent.
public struct ReplyLimiter: Sendable {
    public let burst: Double
    public let perSecond: Double
    private var tokens: Double
    private var last: Double?

    public init(burst: Double = 20, perSecond: Double = 20) {
        self.burst = burst
        self.perSecond = perSecond
        tokens = burst
    }

    /// Whether a reply may go now (`now`: seconds, any monotonic clock); takes a token if so.
    public mutating func allows(now: Double) -> Bool {
        if let last { tokens = min(burst, tokens + max(0, now - last) * perSecond) }
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
