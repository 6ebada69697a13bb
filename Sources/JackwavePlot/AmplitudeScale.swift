import FoundationEssentials
import Glibc

/// How a sample value becomes a height in a lane: linear, or dBFS with `--db`.
///
/// Both map a sample to -1…1 (bottom…top of the lane) through a function that never
/// decreases, so a column's [min, max] stays a [bottom, top] interval on screen.
public enum AmplitudeScale: Sendable, Equatable {
    /// Full scale at the lane's edges; values beyond ±1 are pinned there.
    case linear
    /// |x| in dBFS from `floor` (the centre line) to 0 dB (the edges), sign kept, so the
    /// waveform stays symmetric, as in an audio editor's dB view.
    case decibels(floor: Double)

    /// The dB view's default floor: quiet enough for room noise, loud enough to leave
    /// room for music's dynamics.
    public static let defaultFloor = -60.0

    /// The position of sample value `x`: -1 (bottom) … 1 (top).
    @inline(__always)
    public func position(_ x: Float) -> Double {
        let v = Double(x)
        switch self {
        case .linear:
            return Swift.min(1, Swift.max(-1, v))
        case let .decibels(floor):
            let magnitude = abs(v)
            guard magnitude > 0 else { return 0 }
            let db = 20 * log10(magnitude)
            let m = Swift.min(1, Swift.max(0, (db - floor) / -floor))
            return v < 0 ? -m : m
        }
    }

    /// One labelled tick on the amplitude axis.
    public struct Tick: Sendable, Equatable {
        /// -1…1, as `position` gives.
        public let position: Double
        public let label: String
    }

    /// Ticks for a lane `laneHeight` pixels tall: symmetric, with at least ~18 px between
    /// them, so labels never overlap.
    public func ticks(laneHeight: Double) -> [Tick] {
        let half = laneHeight / 2
        switch self {
        case .linear:
            let step: Double = half >= 160 ? 0.25 : half >= 40 ? 0.5 : 1
            var ticks: [Tick] = []
            for k in stride(from: -1.0, through: 1.0 + 1e-9, by: step) {
                ticks.append(Tick(position: k, label: Self.linearLabel(k)))
            }
            return ticks
        case let .decibels(floor):
            let range = -floor
            let step = [3.0, 6, 10, 12, 20, 30, 60].first { half * $0 / range >= 18 } ?? range
            var ticks = [Tick(position: 0, label: "-∞")]
            var db = 0.0
            while db > floor + 1e-9 {
                let m = (db - floor) / range
                let text = db == 0 ? "0 dB" : fixed(db, 0)
                ticks.append(Tick(position: m, label: text))
                ticks.append(Tick(position: -m, label: text))
                db -= step
            }
            return ticks.sorted { $0.position < $1.position }
        }
    }

    /// "1", "0.5", "-0.25": as many decimals as the value needs.
    private static func linearLabel(_ v: Double) -> String {
        if v == v.rounded() { return String(Int(v)) }
        return fixed(v, (v * 2).rounded() == v * 2 ? 1 : 2)
    }
}
