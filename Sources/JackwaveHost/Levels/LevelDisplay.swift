import JackwaveAnalysis

/// A live view of the levels (the terminal's meter): fed every block the callback measured,
/// and given a turn to draw on every pass of the main loop. Main thread only.
public protocol LevelDisplay: AnyObject {
    /// One block's peaks, one per input, from frame `startFrame` of the run.
    func levels(startFrame: Int64, frameCount: Int, peaks: [Float])
    /// Draws a frame if one is due, with the run's figures.
    func tick(status: StatusSnapshot)
    /// The run is over: leave the screen as a terminal expects it.
    func close()
    /// The live loudness analysis's latest reading (`--loudness`), when it has a new one.
    func loudness(_ reading: LoudnessReading)
}

extension LevelDisplay {
    /// The live loudness analysis's latest reading (`--loudness`); a display without a
    /// loudness view ignores it.
    public func loudness(_ reading: LoudnessReading) {}
}
