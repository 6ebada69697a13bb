/// One processed block as the take logic sees it: its place on the run's timeline, its
/// loudest sample and the transport state. Published after the block's audio (or its drop),
/// so a reader finds the block's frames already in the audio ring.
@frozen
public struct BlockRecord: BitwiseCopyable, Equatable, Sendable {
    /// The block's first frame, counted from the start of the run.
    public var startFrame: Int64
    /// Frames in the block.
    public var frameCount: Int32
    /// Largest absolute sample of any input in the block (linear, 1.0 = full scale).
    public var peak: Float
    /// The transport state libjack reported in this block's cycle was Rolling.
    public var rolling: Bool
    /// A MIDI Machine Control command heard in the block (`--mmc`), nil for none: the take
    /// logic starts or ends a take at its frame. One a block; a second in the same block is
    /// counted and ignored (`MidiActivity`).
    public var command: MachineControl?
    /// The command's frame, from the block's first.
    public var commandOffset: Int32

    // realtime
    @inlinable
    public init(startFrame: Int64, frameCount: Int32, peak: Float, rolling: Bool,
                command: MachineControl? = nil, commandOffset: Int32 = 0) {
        self.startFrame = startFrame
        self.frameCount = frameCount
        self.peak = peak
        self.rolling = rolling
        self.command = command
        self.commandOffset = commandOffset
    }

    /// The frame just after the block.
    @inlinable public var endFrame: Int64 { startFrame + Int64(frameCount) }
}
