/// One input channel's peak over one block: the level ring's payload. A block's channels
/// travel as consecutive records in one ring slot, so a reader gets all of them or none.
@frozen
public struct PeakRecord: BitwiseCopyable, Equatable, Sendable {
    /// The block's first frame, counted from the start of the run.
    public var startFrame: Int64
    /// Frames in the block.
    public var frameCount: Int32
    /// Largest absolute sample in the block (linear, 1.0 = full scale).
    public var peak: Float

    // realtime
    @inlinable
    public init(startFrame: Int64, frameCount: Int32, peak: Float) {
        self.startFrame = startFrame
        self.frameCount = frameCount
        self.peak = peak
    }
}
