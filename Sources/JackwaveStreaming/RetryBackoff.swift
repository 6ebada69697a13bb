/// When a lost stream tries its server again: 0.5 s after the loss, then doubling up to every
/// 30 s while the server stays away. A connection that lasted `settleSeconds` starts the
/// series again; one dropped sooner (a server that takes the login and closes) goes on with
/// it, so that a failing server is never hammered.
public struct RetryBackoff: Sendable, Equatable {
    public static let firstSeconds = 0.5
    public static let longestSeconds = 30.0
    /// A connection this long was a real one: the next loss starts from `firstSeconds`.
    public static let settleSeconds = 10.0
    /// Failed attempts in a row since the last settled connection.
    public private(set) var failures = 0

    public init() {}

    /// The wait before the next attempt, once an attempt has failed (or a connection that
    /// lasted `connectedSeconds` was lost), and counts it.
    public mutating func next(afterConnectionOf connectedSeconds: Double? = nil) -> Double {
        if let connectedSeconds, connectedSeconds >= Self.settleSeconds { failures = 0 }
        defer { failures += 1 }
        var wait = Self.firstSeconds
        for _ in 0..<min(failures, 16) { wait *= 2 }
        return min(wait, Self.longestSeconds)
    }
}
