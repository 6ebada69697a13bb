import Glibc

/// A path's latency from its linear impulse response: where the response's band-limited peak
/// lies, to a small fraction of a frame. The whole-frame peak first; then the fraction, by
/// Newton's method, as the τ that maximises `Σ Re(H(f_k)·e^(2πi·f_k·τ))` over the bins from
/// 100 Hz to 16 kHz. For a pure delay D the sum peaks at τ = D exactly, whatever the band's
/// weights (jack_delay's multi-tone phase delay at fs/16 is then the same number).
public struct LatencyEstimate: Sendable, Equatable {
    /// Frames from output to input, with the fraction.
    public let frames: Double
    /// Whether the path inverts the signal (the peak is negative).
    public let inverted: Bool
    /// The peak's height over the RMS of the response far from it, dB: below 30 dB, nothing
    /// that looks like a response came back.
    public let peakToNoiseDB: Double

    /// The lowest and highest frequency whose bins the fraction is fitted over.
    static let fitBottom = 100.0
    static func fitTop(sampleRate: Double) -> Double { Swift.min(16_000, 0.35 * sampleRate) }

    /// Estimates from `response` (deconvolved by `deconvolver`), whose peak is searched among
    /// frames `0...searchFrames`; `window` (centred on the whole-frame peak by this method)
    /// gives the before/after extent of the linear response. `noiseFrames` is a stretch of
    /// the response where nothing but noise is (between the linear tail and the harmonics).
    static func estimate(_ response: ImpulseResponse, deconvolver: SweepDeconvolver, searchFrames: Int,
                         window: ImpulseWindow, noiseFrames: ClosedRange<Int>) -> LatencyEstimate {
        let peak = response.peak(in: 0...searchFrames)
        let sign = response.samples[peak] < 0 ? -1.0 : 1.0
        let centred = ImpulseWindow(center: Double(peak), before: window.before, after: window.after, taper: window.taper)
        let spectrum = deconvolver.binSpectrum(of: response, window: centred)
        let band = deconvolver.band
        let fs = deconvolver.sampleRate
        var bins: [(omega: Double, h: Complex)] = []
        for k in 0..<spectrum.count {
            let f = deconvolver.frequency(ofBin: k)
            guard f >= fitBottom && f <= fitTop(sampleRate: fs) else { continue }
            let b = band.value(at: f)
            guard b.squaredMagnitude > 0 else { continue }
            bins.append((2 * Double.pi * f / fs, spectrum[k] / b * sign))
        }
        // Start from the parabola through the three frames around the peak, then Newton's
        // method on the sum's derivative (a handful of steps: it converges quadratically).
        let (l, c, r) = (response[circular: peak - 1] * sign, response[circular: peak] * sign, response[circular: peak + 1] * sign)
        let denominator = l - 2 * c + r
        var tau = Double(peak) + (denominator < 0 ? Swift.max(-0.5, Swift.min(0.5, 0.5 * (l - r) / denominator)) : 0)
        for _ in 0..<8 {
            var first = 0.0, second = 0.0
            for (omega, h) in bins {
                let z = h * Complex(magnitude: 1, phase: omega * tau)
                first -= omega * z.im
                second -= omega * omega * z.re
            }
            guard second < 0 else { break }
            let step = first / second
            tau -= Swift.max(-0.5, Swift.min(0.5, step))
            if abs(step) < 1e-9 { break }
        }
        var noise = 0.0
        for n in noiseFrames { noise += response[circular: n] * response[circular: n] }
        let rms = (noise / Double(noiseFrames.count)).squareRoot()
        // Digital silence is no response, however quiet its noise.
        let height = abs(response.samples[peak])
        let snr = height == 0 ? -Double.infinity : rms > 0 ? 20 * log10(height / rms) : Double.infinity
        return LatencyEstimate(frames: tau, inverted: sign < 0, peakToNoiseDB: snr)
    }
}
