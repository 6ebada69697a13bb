import JackwaveSoundFiles

/// A recording on the wall clock (`--split-every`): the period its pieces are cut at, how
/// they are named, and how much of its neighbours each piece's file also holds
/// (`--overlap`). Part of `RecordingSpec`; `RecordingFiles` does the cutting.
public struct ClockPlan: Sendable, Equatable {
    public let period: ClockPeriod
    public let naming: ClockNaming
    /// `--overlap`, in frames at the file's rate (0 for none): see `OverlapSpans`.
    public let overlapFrames: Int64

    public init(period: ClockPeriod, naming: ClockNaming, overlapFrames: Int64) {
        self.period = period
        self.naming = naming
        self.overlapFrames = overlapFrames
    }

    /// Where the pieces are cut: every period of the zone's clock.
    public var boundaries: ClockBoundaries { ClockBoundaries(period: period, zone: naming.zone) }
}
