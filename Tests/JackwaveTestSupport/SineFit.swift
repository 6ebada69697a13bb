import Foundation

/// The sine that best fits a recording (least squares over frequency, amplitude, phase and
/// offset), and what is left: THD+N as the residual's power over the sine's. Independent of
/// jackwave: closed-form normal equations for each frequency, a golden-section search for
/// the frequency, started from the zero crossings' estimate.
public struct SineFit {
    public let frequency: Double
    public let amplitude: Double
    /// Residual power over the fitted sine's power, in dB.
    public let thdPlusNoiseDB: Double

    /// nil if `x` has no frequency near `near` (within 1 %).
    public init?(_ x: [Float], rate: Double, near: Double) {
        guard let rough = Signal.frequency(x, rate: rate), abs(rough - near) < near / 100 else { return nil }
        let total = x.reduce(0.0) { $0 + Double($1) * Double($1) }
        // Residual energy at frequency f, and the fitted amplitude.
        func fit(_ f: Double) -> (residual: Double, amplitude: Double) {
            let w = 2 * Double.pi * f / rate
            var ss = 0.0, sc = 0.0, s1 = 0.0, cc = 0.0, c1 = 0.0, sy = 0.0, cy = 0.0, y1 = 0.0
            // Rotate (sin, cos) by w each sample; set afresh now and then against drift.
            var s = 0.0, c = 1.0
            let sw = sin(w), cw = cos(w)
            for (i, sample) in x.enumerated() {
                if i % 4096 == 0 { s = sin(w * Double(i)); c = cos(w * Double(i)) }
                let y = Double(sample)
                ss += s * s; sc += s * c; s1 += s; cc += c * c; c1 += c
                sy += s * y; cy += c * y; y1 += y
                (s, c) = (s * cw + c * sw, c * cw - s * sw)
            }
            let v = [sy, cy, y1]
            let k = Signal.solve3([[ss, sc, s1], [sc, cc, c1], [s1, c1, Double(x.count)]], v)
            let explained = k[0] * v[0] + k[1] * v[1] + k[2] * v[2]
            return (max(total - explained, 0), (k[0] * k[0] + k[1] * k[1]).squareRoot())
        }
        var lo = rough - 0.05 * (1 + rough / 1000), hi = rough + 0.05 * (1 + rough / 1000)
        let g = (5.0.squareRoot() - 1) / 2
        var a = hi - g * (hi - lo), b = lo + g * (hi - lo)
        var fa = fit(a).residual, fb = fit(b).residual
        for _ in 0..<40 {
            if fa < fb { hi = b; b = a; fb = fa; a = hi - g * (hi - lo); fa = fit(a).residual }
            else { lo = a; a = b; fa = fb; b = lo + g * (hi - lo); fb = fit(b).residual }
        }
        frequency = (lo + hi) / 2
        let best = fit(frequency)
        amplitude = best.amplitude
        let signalPower = best.amplitude * best.amplitude / 2 * Double(x.count)
        thdPlusNoiseDB = 10 * log10(max(best.residual, 1e-30) / signalPower)
    }
}

/// A short stretch fitted to a sine of a known frequency: least squares over amplitude and
/// phase alone, for stretches too short to find a frequency in, such as one period of a
/// server. An exact sine at that frequency leaves nothing; one off by δf leaves a residual
/// that grows with the stretch, so that under −100 dB in 256 frames at 48 kHz the frequency
/// is within about 0.001 Hz, whatever the phase (a link that replays an old buffer moves it).
public struct KnownFrequencyFit {
    public let amplitude: Double
    /// Residual power over the fitted sine's power, in dB.
    public let residualDB: Double

    /// nil for a stretch of exact zeros: nothing arrived there.
    public init?(_ x: ArraySlice<Float>, rate: Double, frequency: Double) {
        guard x.contains(where: { $0 != 0 }) else { return nil }
        let w = 2 * Double.pi * frequency / rate
        var ss = 0.0, sc = 0.0, cc = 0.0, sy = 0.0, cy = 0.0, total = 0.0
        for (i, sample) in x.enumerated() {
            let (s, c, y) = (sin(w * Double(i)), cos(w * Double(i)), Double(sample))
            ss += s * s; sc += s * c; cc += c * c; sy += s * y; cy += c * y; total += y * y
        }
        let determinant = ss * cc - sc * sc
        let a = (sy * cc - cy * sc) / determinant, b = (cy * ss - sy * sc) / determinant
        amplitude = (a * a + b * b).squareRoot()
        let residual = max(total - (a * sy + b * cy), 0)
        residualDB = 10 * log10(max(residual, 1e-30) / max(amplitude * amplitude / 2 * Double(x.count), 1e-30))
    }
}
