import Glibc

/// A synchronized exponential sine sweep (Farina 2000; synchronized as Novak et al. 2015):
/// `x(t) = A·sin(2π·f1·L·e^(t/L))`, rising from `f1` to `f2` in `T = L·ln(f2/f1)` seconds.
///
/// Exponential: it spends the same time on every octave, and the k-th harmonic a
/// nonlinearity makes of it is the sweep itself `L·ln(k)` seconds earlier, so the
/// deconvolved response falls apart into the linear response and one per harmonic before it.
/// Synchronized (`f1·L` whole): `k·φ(t)` and `φ(t + L·ln k)` then differ by whole turns, so
/// each harmonic's response is a clean zero-phase pulse that a short window takes whole.
public struct ExponentialSweep: Sendable, Equatable {
    public let sampleRate: Double
    /// f1 and f2, in Hz.
    public let startFrequency: Double
    public let endFrequency: Double
    /// L, in seconds: the time the frequency takes to grow by e (`f1·L` is a whole number).
    public let rate: Double
    /// Peak amplitude (1 is full scale).
    public let amplitude: Double
    /// `T·sampleRate`, rounded up.
    public let frames: Int

    /// The sweep from `startFrequency` to `endFrequency` closest to `nominalSeconds` long
    /// for which `startFrequency·L` is a whole number (at least 1).
    public init(sampleRate: Double, startFrequency: Double, endFrequency: Double, nominalSeconds: Double, amplitude: Double) {
        self.sampleRate = sampleRate
        self.startFrequency = startFrequency
        self.endFrequency = endFrequency
        self.amplitude = amplitude
        let octaves = log(endFrequency / startFrequency)
        let turns = Swift.max(1, (startFrequency * nominalSeconds / octaves).rounded())
        rate = turns / startFrequency
        frames = Int((rate * octaves * sampleRate).rounded(.up))
    }

    /// The sweep's length in seconds.
    public var seconds: Double { Double(frames) / sampleRate }

    /// The frequency at which the fade-in has ended: half an octave above the start.
    public var fullLevelFrequency: Double { startFrequency * 2.0.squareRoot() }

    /// How long the fade-in lasts, in frames: the sweep's first half octave, raised cosine.
    public var fadeInFrames: Int { Int((rate * log(2.0) / 2 * sampleRate).rounded()) }

    /// How long the fade-out lasts, in frames: the last 3 ms (the sweep passes its last 1 %
    /// of frequency in them, at 48 kHz and L = 0.3 s), raised cosine.
    public var fadeOutFrames: Int { Swift.max(1, Int((0.003 * sampleRate).rounded())) }

    /// How many frames before the linear impulse response the k-th harmonic's lies: L·ln k.
    public func harmonicAdvance(order k: Int) -> Double { rate * log(Double(k)) * sampleRate }

    /// The samples, faded in and out, in double precision.
    public func samples() -> [Double] {
        let fadeIn = fadeInFrames, fadeOut = fadeOutFrames
        let turns = startFrequency * rate
        return (0..<frames).map { n in
            let t = Double(n) / sampleRate
            // 2π·f1·L·(e^(t/L) − 1): the same phase, as f1·L is whole, with smaller numbers.
            let phase = 2 * Double.pi * turns * expm1(t / rate)
            var gain = amplitude
            if n < fadeIn { gain *= 0.5 - 0.5 * cos(Double.pi * Double(n) / Double(fadeIn)) }
            let fromEnd = frames - 1 - n
            if fromEnd < fadeOut { gain *= 0.5 - 0.5 * cos(Double.pi * Double(fromEnd) / Double(fadeOut)) }
            return gain * sin(phase)
        }
    }
}
