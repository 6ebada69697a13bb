import JackwaveSoundFiles
import FoundationEssentials
import Glibc

/// The tone's adjustable parameters and what each key does to them.
struct ToneParameters: Equatable {
    var frequency: Double
    /// Peak amplitude, linear; never above 1 (0 dBFS).
    var amplitude: Float
    var paused = false
    /// Frequencies stay strictly inside (0, Nyquist).
    let nyquist: Double

    static let semitone = pow(2.0, 1.0 / 12)
    static let cent = pow(2.0, 1.0 / 1200)
    /// One decibel as an amplitude ratio.
    static let decibel = Float(pow(10.0, 1.0 / 20))

    /// Applies a key; a change that would leave the valid range is ignored.
    mutating func apply(_ key: ToneKey) {
        switch key {
        case .pause: paused.toggle()
        case .semitoneUp: setFrequency(frequency * Self.semitone)
        case .semitoneDown: setFrequency(frequency / Self.semitone)
        case .centUp: setFrequency(frequency * Self.cent)
        case .centDown: setFrequency(frequency / Self.cent)
        case .louder: amplitude = min(1, amplitude == 0 ? 0.001 : amplitude * Self.decibel)
        case .quieter: amplitude /= Self.decibel
        case .quit: break
        }
    }

    private mutating func setFrequency(_ f: Double) {
        if f > 0 && f < nyquist { frequency = f }
    }

    /// `440.00 Hz  -20.0 dBFS` (and `paused`).
    var description: String {
        let db = amplitude > 0 ? String(printf: "%.1f dBFS", 20 * log10(Double(amplitude))) : "-inf dBFS"
        return String(printf: "%.2f Hz  ", frequency) + db + (paused ? "  paused" : "")
    }
}
