/// What the realtime callback does each cycle: which rings it feeds and whether it plays.
public struct EngineConfiguration: Sendable {
    /// Input ports `in_1 … in_N`.
    public var inputs: Int
    /// Output ports `out_1 … out_M` (0 without a tone).
    public var outputs: Int
    /// Audio ring capacity in frames, or 0 when not recording.
    public var audioRingFrames: Int
    /// Level ring capacity in blocks, or 0 when nobody consumes levels.
    public var levelRingBlocks: Int
    /// Stop after this many frames (`--duration`), or nil to run until stopped.
    public var frameLimit: Int64?
    /// The tone to play on the outputs, if any.
    public var tone: ToneSettings?
    /// Block ring capacity in blocks, or 0 when no take logic reads it (`--trigger`,
    /// `--transport`; see `BlockRecord`).
    public var blockRingBlocks = 0
    /// Each block's record says whether the JACK transport rolled (`--transport`).
    public var followsTransport = false
    /// MIDI input ports: the recorded ones (`--midi`), then the control input (`--mmc`).
    public var midiInputs = 0
    /// The control input's index among `midiInputs`, nil without `--mmc`: its MMC commands
    /// go into the block records.
    public var controlInput: Int?
    /// MIDI ring capacity in records (`MidiRecord`), 0 when no MIDI is recorded.
    public var midiRingRecords = 0
    /// LTC ring capacity in samples (`--ltc`: the timecode input's samples for the thread
    /// that decodes them), 0 without an LTC input.
    public var ltcRingFrames = 0

    public init(inputs: Int, outputs: Int, audioRingFrames: Int, levelRingBlocks: Int,
                frameLimit: Int64?, tone: ToneSettings?) {
        self.inputs = inputs
        self.outputs = outputs
        self.audioRingFrames = audioRingFrames
        self.levelRingBlocks = levelRingBlocks
        self.frameLimit = frameLimit
        self.tone = tone
    }
}
