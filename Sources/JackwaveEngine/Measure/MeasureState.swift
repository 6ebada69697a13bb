import JackwaveDSP

/// What only the measure callback reads and writes, behind a pointer (no class `var`, so no
/// exclusivity check and no allocation in the callback).
struct MeasureState {
    /// The next programme frame to play (and capture frame to fill).
    var position = 0
    /// The server's frame clock, to count the frames it ran without us.
    var cycleClock = CycleClock()
    /// This cycle's start by the server's clock (`jack_last_frame_time`), 0 offline.
    var cycleStart: UInt32 = 0
}
