/// What happens to a live stream, told to the streamer's `events` callback (on its thread)
/// with the stream's place on the recording's timeline (frames offered so far, at the
/// server's rate): for lines and `--events`.
public enum StreamEvent: Sendable, Equatable {
    /// The server took the login. `attempt` counts connections from 1; `missedFrames` were
    /// not streamed since the last connection went (0 for the first).
    case connected(attempt: Int, missedFrames: Int64)
    /// A connection that was up went away (`reason`); the next attempt is in `retrySeconds`.
    case lost(reason: String, retrySeconds: Double)
    /// An attempt to connect failed (`reason`); the next is in `retrySeconds`.
    case connectFailed(reason: String, retrySeconds: Double)
    /// The stream fell behind and skipped `frames` (the recording has them all).
    case dropped(frames: Int64)
}
