import JackwaveSoundFiles
import FoundationEssentials
import Glibc

/// Tick marks for a time axis: the smallest round step (1, 2 or 5 × 10^k below a second,
/// then the steps a clock reader expects, then whole days) that puts at most `maxCount`
/// ticks on the axis. Steps differ by at most 2.5×, so more than `maxCount / 2.5 - 1` show.
public struct TimeTicks: Sendable, Equatable {
    /// How labels are written.
    public enum Style: Sendable, Equatable {
        /// "250 ms", "2.5 ms": everything shown is under a second.
        case milliseconds
        /// "12 s", "1.25 s": up to two minutes.
        case seconds
        /// "1:30", "12:05.5": up to an hour.
        case minutes
        /// "1:00:00": an hour or more.
        case hours
    }

    /// Seconds between ticks.
    public let step: Double
    /// Tick times in seconds, ascending, all within the range asked for.
    public let values: [Double]
    /// How `label(_:)` writes them.
    public let style: Style
    /// Digits after the decimal point that the step needs (in the style's last unit).
    public let decimals: Int

    /// The round steps, shortest first.
    public static let steps: [Double] = {
        var s: [Double] = []
        for exponent in -6 ... -1 {
            let p = pow(10.0, Double(exponent))
            s += [1 * p, 2 * p, 5 * p]
        }
        s += [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200]
        for days in [1.0, 2, 5, 10, 20, 50, 100, 200, 500, 1000] { s.append(days * 86400) }
        return s
    }()

    /// Ticks between `start` and `end` seconds (inclusive), at most `maxCount` of them.
    public static func choose(from start: Double, to end: Double, maxCount: Int) -> TimeTicks {
        let limit = Swift.max(2, maxCount)
        // Tolerance: a tick a hair outside the range (float noise) still counts.
        let eps = (end - start) * 1e-9
        func fits(_ candidate: Double) -> Bool {
            let first = ((start - eps) / candidate).rounded(.up)
            let last = ((end + eps) / candidate).rounded(.down)
            return last - first + 1 <= Double(limit)
        }
        // Past the table's 1000 days, steps go on as 2, 5, 10 × 1000 days…: a MIDI file or a
        // level stream may span 10^12 s, which the table's last step cut into 11,575 ticks.
        var step = steps.first(where: fits) ?? steps.last!
        var longer = 0
        while !fits(step) && step.isFinite {
            step *= longer % 3 == 1 ? 2.5 : 2
            longer += 1
        }
        let first = ((start - eps) / step).rounded(.up)
        let last = ((end + eps) / step).rounded(.down)
        var values: [Double] = []
        if last >= first {
            for k in stride(from: first, through: last, by: 1) { values.append(k * step) }
        }
        // The style follows the last tick shown, which may sit a hair past `end`.
        let reach = Swift.max(end, values.last ?? end)
        let style: Style = reach < 1 ? .milliseconds : reach < 120 ? .seconds : reach < 3600 ? .minutes : .hours
        let unit = style == .milliseconds ? 0.001 : 1
        return TimeTicks(step: step, values: values, style: style, decimals: decimalsNeeded(step / unit))
    }

    /// The text under the tick at `t` seconds.
    public func label(_ t: Double) -> String {
        switch style {
        case .milliseconds: return "\(fixed(t * 1000, decimals)) ms"
        case .seconds: return "\(fixed(t, decimals)) s"
        case .minutes, .hours: return TimeText.clock(t, decimals: decimals, hours: style == .hours)
        }
    }

    /// Digits after the point needed to write multiples of `step` exactly (at most 6).
    static func decimalsNeeded(_ step: Double) -> Int {
        var d = 0
        var scaled = step
        while d < 6 && abs(scaled - scaled.rounded()) > 1e-6 * Swift.max(1, scaled) {
            d += 1
            scaled *= 10
        }
        return d
    }
}

/// Writing durations and instants for people.
public enum TimeText {
    /// "1:05" or "1:02:05", with `decimals` digits of fractional seconds ("1:05.25").
    public static func clock(_ t: Double, decimals: Int, hours: Bool) -> String {
        let scale = pow(10.0, Double(decimals))
        // Round once, in units of the last digit, so that 59.9996 becomes 1:00.000.
        let units = (abs(t) * scale).rounded()
        let whole = Int64(units / scale)
        let fraction = Int64(units - Double(whole) * scale)
        let s = whole % 60, m = (whole / 60) % (hours ? 60 : Int64.max), h = whole / 3600
        var text = t < 0 && units > 0 ? "-" : ""
        text += hours ? "\(h):\(pad(m)):\(pad(s))" : "\(m):\(pad(s))"
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }

    /// A length as a title shows it: "850 ms", "12.345 s", "10:00.000", "1:02:03.000".
    public static func duration(_ length: Double) -> String {
        let t = (length * 1000).rounded() / 1000
        if t < 1 { return "\(fixed(t * 1000, t * 1000 < 10 ? 2 : 1)) ms" }
        if t < 60 { return "\(fixed(t, 3)) s" }
        return clock(t, decimals: 3, hours: t >= 3600)
    }

    private static func pad(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
}

/// `v` with exactly `decimals` digits after the point (no exponent, no "-0").
func fixed(_ v: Double, _ decimals: Int) -> String {
    let text = String(printf: "%.\(decimals)f", v)
    if text.hasPrefix("-"), Double(text) == 0 { return String(text.dropFirst()) }
    return text
}
