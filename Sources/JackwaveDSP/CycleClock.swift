/// The server's frame clock from one cycle to the next. The frames between the end of the
/// last cycle and the start of this one are frames the server ran without this client
/// (PipeWire skips a client that is late rather than wait for it): counted, never invented.
public struct CycleClock {
    /// Where the last cycle ended on the server's wrapping 32-bit frame clock (its
    /// `jack_last_frame_time` plus its frames), once a cycle has been taken.
    public private(set) var lastCycleEnd: UInt32? = nil

    /// A jump at least this long (a minute at 768 kHz), or the clock stepping back, is a reset
    /// of the clock (a period change, a new server), not skipped audio.
    public static let resetFrames = 60 * 768_000

    public init() {}

    /// Takes a cycle of `frames` starting at `start`; returns the frames skipped before it:
    /// 0 for the first cycle, for one that starts where the last ended, and for a reset.
    // realtime
    @inline(__always)
    public mutating func advance(start: UInt32, frames: UInt32) -> Int {
        defer { lastCycleEnd = start &+ frames }
        guard let end = lastCycleEnd else { return 0 }
        // `&-`: the clock wraps, so a step back reads as a jump of more than 2^31 frames.
        let skipped = Int(start &- end)
        return skipped < Self.resetFrames ? skipped : 0
    }
}
