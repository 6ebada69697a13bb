/// The Standard MIDI File clock that makes one tick one audio frame: a division of
/// rate/100 ticks per quarter note at a tempo of 10,000 µs per quarter, so that 100
/// quarters last a second and rate/100 × 100 ticks do too.
///
/// A rate that is not a multiple of 100 (22050, 11025) takes the division d and tempo t with
/// d / t = rate / 1,000,000 exactly, t as near 10,000 µs as a 15-bit division allows.
public struct MidiTiming: Equatable, Sendable {
    /// Ticks per quarter note (the header's division, at most 32767).
    public let division: Int
    /// Microseconds per quarter note (the tempo meta event, at most 2^24 - 1).
    public let tempo: Int

    /// Whether the file's header can hold this clock: a division of at most 15 bits (the top
    /// bit means SMPTE timing) and a tempo of at most 24 bits. A rate whose reduced ratio to a
    /// million needs more (44101 Hz) has no tick that is a frame: `--midi` refuses it.
    public var isExact: Bool { division <= 32767 && tempo <= 0xFF_FFFF }

    public init(fileRate: Int) {
        if fileRate % 100 == 0 && fileRate / 100 <= 32767 {
            division = fileRate / 100
            tempo = 10_000
            return
        }
        var a = fileRate, b = 1_000_000
        while b != 0 { (a, b) = (b, a % b) }
        let d0 = fileRate / a, t0 = 1_000_000 / a
        let multiple = max(1, min(32767 / max(1, d0), Int((10_000.0 / Double(t0)).rounded())))
        division = d0 * multiple
        tempo = t0 * multiple
    }
}
