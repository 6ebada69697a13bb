/// How an armed recording cuts its takes: `--trigger` or `--transport`, `--pre-roll`,
/// `--stop-after`, `--stop-level`, `--takes`. All frame counts are at the server's rate.
public struct TakeSettings: Sendable, Equatable {
    /// What starts a take.
    public enum Start: Sendable, Equatable {
        /// A block in which any input's peak reaches this level (linear).
        case level(Float)
        /// A cycle in which the JACK transport rolls.
        case transport
        /// MIDI Machine Control on the control input (`--mmc`): RECORD STROBE starts a take
        /// at its frame, RECORD EXIT or STOP ends it at theirs.
        case machineControl
    }

    public var start: Start
    /// The level every input must stay below (linear) for a take to end (`--stop-level`);
    /// unused with `.transport`, where a take goes on while the transport rolls.
    public var stopLevel: Float
    /// Frames kept before the first frame that started a take (`--pre-roll`).
    public var preRollFrames: Int
    /// Frames a take goes on after the last loud (or rolling) block (`--stop-after`).
    public var stopAfterFrames: Int64
    /// Takes after which the run ends (`--takes`), nil for no end.
    public var maximumTakes: Int?

    public init(start: Start, stopLevel: Float, preRollFrames: Int, stopAfterFrames: Int64, maximumTakes: Int?) {
        self.start = start
        self.stopLevel = stopLevel
        self.preRollFrames = preRollFrames
        self.stopAfterFrames = stopAfterFrames
        self.maximumTakes = maximumTakes
    }

    /// Whether takes follow MMC commands, frame-exact, rather than blocks.
    public var followsMachineControl: Bool { start == .machineControl }

    /// Whether each block must say if the transport rolled.
    public var followsTransport: Bool { start == .transport }
}
