import Glibc

/// The 2nd to 5th harmonics' levels against the fundamental's frequency, from the harmonics'
/// impulse responses the deconvolution put `L·ln k` before the linear one. At fundamental f,
/// harmonic k's level is `|H_k(k·f)| / |H_1(f)|`: an exponential sweep's k-th harmonic passes
/// k·f exactly when the sweep does, so its response there is what the path made of f.
///
/// Each value has a window of its own: at least 10 ms or 30 cycles of k·f, never past 45 % of
/// the way to a neighbouring harmonic, flat over its middle half. Short at high frequencies,
/// to keep out noise and the aliases a digital nonlinearity folds back; long at low ones, to
/// resolve them. A value needs 14 cycles of k·f in its window; levels are averaged in power
/// over 1/3 octave of the fundamental.
struct HarmonicAnalysis {
    static let orders = 2...5
    static let minimumWindowSeconds = 0.010
    static let minimumCycles = 30.0
    static let requiredCycles = 14.0
    static let taper = 0.5
    static let neighbourFraction = 0.45
    static let smoothingOctaves = 1.0 / 3

    let sweep: ExponentialSweep
    let band: AnalysisBand

    /// The window for order `k` at output frequency `hz`, around the harmonic's pulse
    /// `latency − L·ln k`; nil where it cannot hold enough cycles.
    func window(order k: Int, hz: Double, latency: Double) -> ImpulseWindow? {
        let fs = sweep.sampleRate
        let advance = sweep.harmonicAdvance(order: k)
        let toEarlier = sweep.harmonicAdvance(order: k + 1) - advance
        let toLater = advance - (k == 2 ? 0 : sweep.harmonicAdvance(order: k - 1))
        let half = Swift.max(Self.minimumWindowSeconds, Self.minimumCycles / hz) * fs / 2
        let before = Swift.min(half, Self.neighbourFraction * toEarlier)
        let after = Swift.min(half, Self.neighbourFraction * toLater)
        guard (before + after) / fs * hz >= Self.requiredCycles else { return nil }
        return ImpulseWindow(center: latency - advance, before: before, after: after, taper: Self.taper)
    }

    /// Every order's curve for `response` whose linear transfer at `frequencies` is `linear`.
    func curves(of response: ImpulseResponse, latency: Double, frequencies: [Double], linear: [Complex]) -> [HarmonicCurve] {
        Self.orders.map { k in
            var raw: [(hz: Double, power: Double)] = []
            for (i, f) in frequencies.enumerated() where Double(k) * f <= band.reportTop {
                let g = Double(k) * f
                guard let window = window(order: k, hz: g, latency: latency) else { continue }
                let b = band.value(at: g)
                let fundamental = linear[i].squaredMagnitude
                guard b.squaredMagnitude > 0, fundamental > 0 else { continue }
                let harmonic = (response.spectrum(at: g, window: window) / b).squaredMagnitude
                raw.append((f, harmonic / fundamental))
            }
            let half = Self.smoothingOctaves / 2
            let points = raw.map { point -> (hz: Double, db: Double) in
                let near = raw.filter { abs(log2($0.hz / point.hz)) <= half + 1e-9 }
                let mean = near.reduce(0) { $0 + $1.power } / Double(near.count)
                return (point.hz, 10 * log10(mean))
            }
            return HarmonicCurve(order: k, points: points)
        }
    }
}
