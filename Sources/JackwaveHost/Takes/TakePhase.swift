/// Where an armed recording is, for the status line and the level stream.
public enum TakePhase: Int, Sendable {
    /// Waiting for a take, keeping the pre-roll.
    case armed = 0
    /// Inside a take, the signal (or the transport) still on.
    case recording = 1
    /// Inside a take, counting down `--stop-after`.
    case stopping = 2
}

/// A finished (or cut short) take, for the summary.
public struct TakeSummary: Sendable, Equatable {
    /// Its number in the file names (`take-003.wav` is 3).
    public var number: Int
    public var path: String
    /// Its first frame on the run's timeline (pre-roll included) and its length.
    public var firstFrame: Int64
    public var frames: Int64
}
