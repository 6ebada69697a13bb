import Glibc

/// A sine tone generator with an exact double-precision phase accumulator, raised-cosine
/// fades and smoothed parameter changes. (Stub: to be completed.)
public struct ToneGenerator {
    public private(set) var frequency: Double
    public private(set) var amplitude: Float
    public let sampleRate: Double
    public let fadeFrames: Int
    var phase: Double = 0
    var frame: Int64 = 0
    var stopAt: Int64 = .max

    /// A tone that begins with a fade-in at its first processed sample.
    public init(sampleRate: Double, frequency: Double, amplitude: Float, fadeFrames: Int) {
        self.sampleRate = sampleRate
        self.frequency = frequency
        self.amplitude = amplitude
        self.fadeFrames = fadeFrames
    }

    /// Phase-continuous frequency change.
    public mutating func setFrequency(_ hz: Double) { frequency = hz }
    /// Volume change, smoothed.
    public mutating func setAmplitude(_ a: Float) { amplitude = a }
    /// Pause (fade out) or resume (fade in).
    public mutating func setPaused(_ paused: Bool) {}
    /// Begin the fade-out now.
    public mutating func stop() { stopAt = min(stopAt, frame + Int64(fadeFrames)) }
    /// Schedule the fade-out so that it ends exactly at generator frame `end`.
    public mutating func stop(endingAtFrame end: Int64) { stopAt = min(stopAt, end) }
    /// True once the fade-out has finished: every later sample is zero.
    public var isFinished: Bool { frame >= stopAt }

    /// Writes `count` samples.
    public mutating func process(into out: UnsafeMutablePointer<Float>, count: Int) {
        let step = frequency / sampleRate
        for i in 0..<count {
            if frame >= stopAt { out[i] = 0; frame += 1; continue }
            out[i] = amplitude * Float(sin(2 * Double.pi * phase))
            phase += step
            if phase >= 1 { phase -= 1 }
            frame += 1
        }
    }
}
