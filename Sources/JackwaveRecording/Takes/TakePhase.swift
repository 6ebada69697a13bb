/// Where an armed recording is, for the status line and the level stream.
public enum TakePhase: Int, Sendable {
    /// Waiting for a take, keeping the pre-roll.
    case armed = 0
    /// Inside a take, the signal (or the transport) still on.
    case recording = 1
    /// Inside a take, counting down `--stop-after`.
    case stopping = 2
}

