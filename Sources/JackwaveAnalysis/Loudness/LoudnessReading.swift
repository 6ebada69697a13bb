import JackwaveDSP
import JackwaveLevelStream

/// One report of the live loudness analysis: the measures after `frame` frames, and each
/// channel's true peak since the report before.
public struct LoudnessReading: Equatable, Sendable {
    /// Frames measured when this was taken, on the run's timeline (the server's rate).
    public var frame: Int64
    /// M, S, I, LRA and the true peaks since the start, as the level stream shows them.
    public var columns: LoudnessColumns
    /// Each channel's largest true peak since the previous reading, dBTP: the meter's
    /// current true peak (`columns.truePeaks` is its hold).
    public var recentTruePeaks: [Float]

    public init(frame: Int64, columns: LoudnessColumns, recentTruePeaks: [Float]) {
        self.frame = frame
        self.columns = columns
        self.recentTruePeaks = recentTruePeaks
    }
}
