import Glibc

/// THD+N of a steady tone: the power left once the fitted sine (`SineFit`) is removed, within
/// the measurement band (AES17's 20 Hz to 20 kHz, or less at lower rates), over the whole's.
/// The band is summed from a Hann-windowed FFT of the residual; with the fundamental already
/// gone, the window's leakage only blurs the band's edges.
public struct ToneMeasure: Sendable, Equatable {
    /// The tone's frequency as fitted, Hz.
    public let hz: Double
    /// The fitted fundamental's level, dBFS (a full-scale sine is 0 dBFS).
    public let fundamentalDBFS: Double
    /// The residual's level within the band, dBFS (RMS, referred to a full-scale sine's).
    public let residualDBFS: Double

    /// THD+N ratio: residual over the whole (fundamental plus residual), dB.
    public var thdNDB: Double {
        let fundamental = pow(10, fundamentalDBFS / 10), residual = pow(10, residualDBFS / 10)
        return 10 * log10(residual / (fundamental + residual))
    }

    /// The same ratio in percent.
    public var thdNPercent: Double { 100 * pow(10, thdNDB / 20) }

    /// Measures `samples` (the tone's analysis window) around `frequency` Hz.
    static func measure(_ samples: [Double], frequency: Double, sampleRate: Double, band: ClosedRange<Double>) throws(MeasureError) -> ToneMeasure {
        let fit = SineFit(samples, frequency: frequency, sampleRate: sampleRate)
        let residual = fit.residual(of: samples)
        let n = residual.count
        let fft = try RealFFT(size: n)
        var windowPower = 0.0
        let windowed = residual.enumerated().map { i, value -> Double in
            let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n))
            windowPower += w * w
            return value * w
        }
        let spectrum = fft.forward(windowed)
        var power = 0.0
        for k in 1..<spectrum.count {
            let f = Double(k) * sampleRate / Double(n)
            guard band.contains(f) else { continue }
            power += (k == n / 2 ? 1 : 2) * spectrum[k].squaredMagnitude
        }
        power /= Double(n) * windowPower
        let fundamental = fit.amplitude * fit.amplitude / 2
        return ToneMeasure(hz: fit.omega * sampleRate / (2 * Double.pi),
                           fundamentalDBFS: 10 * log10(2 * fundamental),
                           residualDBFS: 10 * log10(2 * power))
    }
}
