import JackwaveDSP

/// State only the realtime thread reads and writes, kept behind a pointer so the callback
/// touches no class `var` (and so no exclusivity check) and allocates nothing.
struct RealtimeState {
    var streamFrame: Int64 = 0
    /// The server's frame clock, to count the frames it ran without us.
    var cycleClock = CycleClock()
    var frameLimit: Int64 = .max
    /// A gap not yet published to the writer (the drop ring was full, or the gap goes on).
    var pendingDropStart: Int64 = 0
    var pendingDropCount: Int64 = 0
    var tone: ToneGenerator?
    var appliedFrequencyBits: UInt64 = 0
    var appliedAmplitudeBits: UInt32 = 0
    var appliedPaused = false
    var appliedStop = false
    /// The control input's MMC command in this cycle, for the block record (`--mmc`).
    var pendingCommand: MachineControl?
    var pendingCommandOffset: Int32 = 0
    /// LTC samples not yet announced as missing (the LTC ring was full), like the audio's.
    var pendingLTCGapStart: Int64 = 0
    var pendingLTCGapCount: Int64 = 0
}
