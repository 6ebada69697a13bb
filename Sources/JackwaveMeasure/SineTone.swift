import Glibc

/// A steady sine of one frequency and level, with raised-cosine fades: the stepped sine of
/// THD+N and of the AES17 noise measure. Computed in double precision from the sample
/// index (no accumulated phase), so that its only error is the final rounding to float.
public struct SineTone: Sendable, Equatable {
    public let sampleRate: Double
    public let frequency: Double
    /// Peak amplitude (1 is full scale).
    public let amplitude: Double
    public let frames: Int
    /// Frames of each fade.
    public let fadeFrames: Int

    public init(sampleRate: Double, frequency: Double, amplitude: Double, frames: Int, fadeSeconds: Double = 0.01) {
        self.sampleRate = sampleRate
        self.frequency = frequency
        self.amplitude = amplitude
        self.frames = frames
        fadeFrames = Swift.min(frames / 4, Int((fadeSeconds * sampleRate).rounded()))
    }

    /// The samples, faded in and out.
    public func samples() -> [Double] {
        let w = 2 * Double.pi * frequency / sampleRate
        return (0..<frames).map { n in
            var gain = amplitude
            let edge = Swift.min(n, frames - 1 - n)
            if edge < fadeFrames { gain *= 0.5 - 0.5 * cos(Double.pi * Double(edge) / Double(fadeFrames)) }
            return gain * sin(w * Double(n))
        }
    }
}
