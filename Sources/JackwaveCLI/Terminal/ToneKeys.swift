import Foundation

/// A key pressed while a tone plays on a terminal.
enum ToneKey: Equatable {
    case pause, semitoneUp, semitoneDown, centUp, centDown, louder, quieter, quit
}

/// Turns raw terminal bytes into tone keys: space, arrows (`ESC [ A…D` or `ESC O A…D`),
/// `+`/`=`, `-`/`_`, `q`. Anything else is ignored.
enum ToneKeyParser {
    static func parse(_ bytes: [UInt8]) -> [ToneKey] {
        var keys: [ToneKey] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") {
                switch bytes[i + 2] {
                case UInt8(ascii: "A"): keys.append(.semitoneUp)
                case UInt8(ascii: "B"): keys.append(.semitoneDown)
                case UInt8(ascii: "C"): keys.append(.centUp)
                case UInt8(ascii: "D"): keys.append(.centDown)
                default: break
                }
                i += 3
                continue
            }
            switch b {
            case UInt8(ascii: " "): keys.append(.pause)
            case UInt8(ascii: "+"), UInt8(ascii: "="): keys.append(.louder)
            case UInt8(ascii: "-"), UInt8(ascii: "_"): keys.append(.quieter)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): keys.append(.quit)
            default: break
            }
            i += 1
        }
        return keys
    }
}

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
        let db = amplitude > 0 ? String(format: "%.1f dBFS", 20 * log10(Double(amplitude))) : "-inf dBFS"
        return String(format: "%.2f Hz  ", frequency) + db + (paused ? "  paused" : "")
    }
}
