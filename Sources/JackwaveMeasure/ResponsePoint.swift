import Glibc

/// The frequency response at one frequency: level and phase relative to 1 kHz.
public struct ResponsePoint: Sendable, Equatable {
    public let hz: Double
    /// 20·log10(|H(f)| / |H(1 kHz)|).
    public let db: Double
    /// The phase beyond the latency's (the measured delay removed), less the phase at 1 kHz,
    /// in degrees, −180 < deg ≤ 180.
    public let deg: Double
}

/// One harmonic's level against the fundamental's frequency.
public struct HarmonicCurve: Sendable, Equatable {
    /// 2 to 5.
    public let order: Int
    /// `hz` the fundamental's frequency, `db` the harmonic's level relative to the fundamental
    /// (dBc), smoothed over 1/3 octave.
    public let points: [(hz: Double, db: Double)]

    public static func == (a: HarmonicCurve, b: HarmonicCurve) -> Bool {
        a.order == b.order && a.points.elementsEqual(b.points) { $0.hz == $1.hz && $0.db == $1.db }
    }

    /// The level at the point closest to `hz` (in log frequency), if any.
    public func level(near hz: Double) -> Double? {
        points.min { abs(log2($0.hz / hz)) < abs(log2($1.hz / hz)) }?.db
    }
}
