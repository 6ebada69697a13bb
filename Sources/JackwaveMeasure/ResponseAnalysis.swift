import Glibc

/// The linear frequency response of a path, from the window around its impulse response's
/// peak: `H(f) = DTFT(w·h)(f) / DTFT(w·b)(f)`, `b` the band's own impulse response
/// (`SweepDeconvolver.bandImpulse`) under the same window. Dividing by that removes both the
/// band and what the window cuts off of its slow ringing at the bottom: exact for a path
/// whose own response is short.
struct ResponseAnalysis {
    let deconvolver: SweepDeconvolver
    /// The linear response's window: how far it reaches before and after its centre.
    let before: Double
    let after: Double
    /// The frequencies evaluated.
    let frequencies: [Double]
    /// The band's response under the window, at each frequency (and at 1 kHz).
    let calibration: [Complex]
    let calibrationAtReference: Complex

    static let referenceFrequency = 1000.0

    init(deconvolver: SweepDeconvolver, before: Double, after: Double, frequencies: [Double]) {
        self.deconvolver = deconvolver
        self.before = before
        self.after = after
        self.frequencies = frequencies
        let atZero = ImpulseWindow(center: 0, before: before, after: after)
        calibration = frequencies.map { deconvolver.bandImpulse.spectrum(at: $0, window: atZero) }
        calibrationAtReference = deconvolver.bandImpulse.spectrum(at: Self.referenceFrequency, window: atZero)
    }

    /// The window centred on frame `center` (a whole frame: the band's own response, which
    /// calibrates it, is centred on frame 0).
    func window(center: Int) -> ImpulseWindow { ImpulseWindow(center: Double(center), before: before, after: after) }

    /// H at `frequency` (phase referred to frame `center`), calibrated.
    func transfer(of response: ImpulseResponse, center: Int, at frequency: Double) -> Complex {
        let atZero = ImpulseWindow(center: 0, before: before, after: after)
        return response.spectrum(at: frequency, window: window(center: center))
            / deconvolver.bandImpulse.spectrum(at: frequency, window: atZero)
    }

    /// H at every frequency of the analysis and at 1 kHz (phase referred to frame `center`).
    func transfer(of response: ImpulseResponse, center: Int) -> (values: [Complex], reference: Complex) {
        let w = window(center: center)
        let values = frequencies.indices.map { response.spectrum(at: frequencies[$0], window: w) / calibration[$0] }
        return (values, response.spectrum(at: Self.referenceFrequency, window: w) / calibrationAtReference)
    }

    /// The response points: level and phase relative to 1 kHz, with the linear phase of
    /// `latency` frames removed. Also the transfer itself, for the harmonics' reference.
    func points(of response: ImpulseResponse, center: Int, latency: Double) -> (points: [ResponsePoint], transfer: [Complex]) {
        let (h, reference) = transfer(of: response, center: center)
        let fs = deconvolver.sampleRate
        let offset = latency - Double(center)
        func excessPhase(_ value: Complex, _ f: Double) -> Double {
            (value * Complex(magnitude: 1, phase: 2 * Double.pi * f * offset / fs)).phase
        }
        let referencePhase = excessPhase(reference, Self.referenceFrequency)
        let referenceLevel = reference.magnitude
        let points = frequencies.indices.map { i -> ResponsePoint in
            var deg = (excessPhase(h[i], frequencies[i]) - referencePhase) * 180 / Double.pi
            while deg > 180 { deg -= 360 }
            while deg <= -180 { deg += 360 }
            return ResponsePoint(hz: frequencies[i], db: 20 * log10(h[i].magnitude / referenceLevel), deg: deg)
        }
        return (points, h)
    }
}
