import Glibc

/// The band `B(f)` every impulse response is limited to, and why it has its shape.
///
/// The deconvolution divides by the sweep's spectrum, which only amplifies noise where the
/// sweep has no energy, so the quotient is multiplied by B, 0 there. How B falls to 0
/// decides how compact the responses are in time, and so how whole a window takes one:
/// - top: a raised cosine in log frequency, zero phase, whose ringing dies within a millisecond;
/// - bottom: a 4th-order Butterworth high-pass at 14 Hz, minimum phase, so that its slow
///   ringing comes only after the pulse (the window's effect on it is divided out,
///   `ResponseAnalysis`); then, where it has cut 20 dB already, a raised cosine to 0 from 8 to
///   1 Hz: zero phase, but spread over three octaves, so it rings little before the pulse.
/// A zero-phase low edge alone rings as long before the pulse as after, into the harmonics'.
public struct AnalysisBand: Sendable, Equatable {
    public let sampleRate: Double
    public let lowStopEdge = 1.0
    public let lowPassbandEdge = 8.0
    public let highPassCorner = 14.0
    public static let highPassOrder = 4
    public let highPassbandEdge: Double
    public let highStopEdge: Double

    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        highPassbandEdge = Swift.min(20_500, 0.455 * sampleRate)
        highStopEdge = Swift.min(23_000, MeasurementPlan.sweepEnd(sampleRate: sampleRate))
    }

    /// The highest frequency reported: 20 kHz, or the top of the passband below it.
    public var reportTop: Double { Swift.min(20_000, highPassbandEdge) }

    /// B at `f` Hz.
    public func value(at f: Double) -> Complex {
        let edges = zeroPhaseEdges(at: f)
        return edges == 0 ? .zero : highPass(at: f) * edges
    }

    /// The two raised-cosine edges (real, 0…1).
    func zeroPhaseEdges(at f: Double) -> Double {
        if f <= lowStopEdge || f >= highStopEdge { return 0 }
        if f < lowPassbandEdge { return 0.5 - 0.5 * cos(Double.pi * log(f / lowStopEdge) / log(lowPassbandEdge / lowStopEdge)) }
        if f > highPassbandEdge { return 0.5 + 0.5 * cos(Double.pi * log(f / highPassbandEdge) / log(highStopEdge / highPassbandEdge)) }
        return 1
    }

    /// The analog Butterworth high-pass at `s = i·f/fc`: `Π s / (s − p_k)`, the poles
    /// `p_k = e^(iπ(2k + n + 1)/(2n))` in the left half-plane (so causal and stable).
    func highPass(at f: Double) -> Complex {
        let n = Self.highPassOrder
        let s = Complex(0, f / highPassCorner)
        var h = Complex(1, 0)
        for k in 0..<n {
            let pole = Complex(magnitude: 1, phase: Double.pi * Double(2 * k + n + 1) / Double(2 * n))
            h = h * (s / (s - pole))
        }
        return h
    }

    /// B on the bins of an FFT of `size` samples.
    public func bins(size: Int) -> [Complex] {
        (0...(size / 2)).map { value(at: Double($0) * sampleRate / Double(size)) }
    }
}
