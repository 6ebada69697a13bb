import JackwaveSoundFiles

/// The main loop's readings of the wall clock for the cuts on it (`--split-every`), each
/// with the frame the callback had reached: handed on once a second, as the reading of that
/// second that lagged its frame least.
///
/// A reading taken between two cycles is later than its frame's own time by up to a period
/// (and whatever the main thread was kept from running), never earlier; the least of a
/// second's readings (against the frames) is the one nearest the truth, so drift is judged
/// without a period's jitter. A step of the clock shows in every reading, within a second.
struct ClockWatch {
    let sampleRate: Int
    /// The best of this second's readings, and when (on the frame clock) it began.
    private var best: (frame: Int64, reading: WallClockTime, lag: Double)?
    private var secondStart: Int64?

    init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// Takes a reading at `frame`; returns the second's best once a second of frames has
    /// passed since the first of them.
    mutating func offer(frame: Int64, reading: WallClockTime) -> (frame: Int64, reading: WallClockTime)? {
        // Against any fixed origin: only the differences between readings count.
        let lag = Double(reading.seconds) + Double(reading.nanoseconds) / 1e9 - Double(frame) / Double(sampleRate)
        if best == nil || lag < best!.lag { best = (frame, reading, lag) }
        if secondStart == nil { secondStart = frame }
        guard frame - secondStart! >= Int64(sampleRate), let chosen = best else { return nil }
        best = nil
        secondStart = nil
        return (chosen.frame, chosen.reading)
    }
}
