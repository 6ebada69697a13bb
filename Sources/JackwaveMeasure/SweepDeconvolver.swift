/// Turns what came back from a sweep into an impulse response: the capture's spectrum times
/// `B(f) / X(f)` (X the played sweep's spectrum, B the `AnalysisBand`), transformed back. The
/// exact quotient by the sweep as played, not Farina's time-reversed sweep, so that a direct
/// patch gives back B's own impulse, with no ripple of the sweep's left in it.
public final class SweepDeconvolver {
    public let size: Int
    public let sampleRate: Double
    public let band: AnalysisBand
    let fft: RealFFT
    let inverseFilter: [Complex]
    /// B's own impulse response (the band, deconvolved from a perfect wire).
    public let bandImpulse: ImpulseResponse

    /// For captures of up to `segmentFrames`, deconvolved by `sweep` (as played).
    public init(sweep: [Double], segmentFrames: Int, band: AnalysisBand) throws(MeasureError) {
        size = RealFFT.powerOfTwo(atLeast: segmentFrames)
        sampleRate = band.sampleRate
        self.band = band
        fft = try RealFFT(size: size)
        let x = fft.forward(sweep)
        let b = band.bins(size: size)
        inverseFilter = (0..<x.count).map { k in
            b[k] == .zero || x[k].squaredMagnitude == 0 ? .zero : b[k] / x[k]
        }
        bandImpulse = ImpulseResponse(samples: fft.inverse(b), sampleRate: sampleRate)
    }

    /// The impulse response of the path that turned the sweep into `captured` (its first
    /// frame the sweep's first; at most `size` frames are used).
    public func impulseResponse(of captured: [Double]) -> ImpulseResponse {
        let y = fft.forward(captured)
        let h = (0..<y.count).map { y[$0] * inverseFilter[$0] }
        return ImpulseResponse(samples: fft.inverse(h), sampleRate: sampleRate)
    }

    /// The spectrum of `response` under `window`, on the FFT's bins (phase referred to frame 0).
    func binSpectrum(of response: ImpulseResponse, window: ImpulseWindow) -> [Complex] {
        var windowed = [Double](repeating: 0, count: size)
        for n in window.frames {
            let i = ((n % size) + size) % size
            windowed[i] += response.samples[i] * window.weight(at: n)
        }
        return fft.forward(windowed)
    }

    /// The frequency of bin `k`.
    func frequency(ofBin k: Int) -> Double { Double(k) * sampleRate / Double(size) }
}
