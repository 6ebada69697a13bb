/// A frame and the wall-clock time it was at: the run's frame clock tied to the wall clock,
/// from which other frames' times follow at the sample rate (`time(ofFrame:)`) and back.
public struct ClockAnchor: Sendable, Equatable {
    public var frame: Int64
    public var time: WallClockTime

    public init(frame: Int64, time: WallClockTime) {
        self.frame = frame
        self.time = time
    }

    /// The wall-clock time of `frame`, by this anchor, at `sampleRate`.
    public func time(ofFrame other: Int64, sampleRate: Int) -> WallClockTime {
        let delta = other - frame
        let seconds = delta.floorDividedBy(Int64(sampleRate))
        let rest = delta - seconds * Int64(sampleRate)
        return WallClockTime(seconds: time.seconds + Int(seconds), nanoseconds: time.nanoseconds + Int(rest * 1_000_000_000 / Int64(sampleRate)))
    }

    /// The first frame whose time, by this anchor, is at or after `second` (a whole Unix second).
    public func firstFrame(atOrAfter second: Int, sampleRate: Int) -> Int64 {
        // Nanoseconds from the anchor to the instant, split so that nothing overflows at a
        // day's distance and 768 kHz: whole seconds, and a rest below one.
        let nanoseconds = Int64(second - time.seconds) * 1_000_000_000 - Int64(time.nanoseconds)
        let whole = nanoseconds.floorDividedBy(1_000_000_000)
        let rest = nanoseconds - whole * 1_000_000_000
        let rate = Int64(sampleRate)
        return frame + whole * rate + (rest * rate + 999_999_999) / 1_000_000_000
    }

    /// Seconds by which `reading`, taken at `frame`, is ahead of this anchor's time for it.
    public func difference(reading: WallClockTime, atFrame other: Int64, sampleRate: Int) -> Double {
        let expected = time(ofFrame: other, sampleRate: sampleRate)
        return Double(reading.seconds - expected.seconds) + Double(reading.nanoseconds - expected.nanoseconds) / 1e9
    }
}

extension Int64 {
    /// Division rounding toward minus infinity.
    func floorDividedBy(_ divisor: Int64) -> Int64 {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }
}
