import Glibc
import Foundation
@testable import JackwaveMeasure
import Testing

/// A device under test simulated on the programme's samples, whose every figure is known in
/// closed form: per channel a polynomial, a biquad, a gain, a leak from other channels'
/// inputs, a delay by any number of frames (exact: a linear phase applied in the frequency
/// domain, so the truth is D itself), seeded Gaussian noise; rounded to float at the end.
struct SimulatedDevice {
    struct Channel {
        /// a1 … a5 of a1·x + a2·x² + … + a5·x⁵.
        var polynomial: [Double] = [1, 0, 0, 0, 0]
        /// b0, b1, b2, a1, a2 (a0 = 1).
        var biquad: [Double] = [1, 0, 0, 0, 0]
        var gain = 1.0
        /// Gain of each other channel's input added to this one's, by its index.
        var leaks: [Int: Double] = [:]
        var noiseRMS = 0.0
        var invert = false
    }

    var channels: [Channel]
    var delay = 0.0
    var seed: UInt64 = 1

    /// What the device's inputs give back for `programme` (one array per channel).
    func process(_ programme: [[Float]]) throws -> [[Float]] {
        let frames = try #require(programme.first, "an empty programme").count
        try #require(programme.count >= channels.count && programme.allSatisfy { $0.count >= frames }
                     && channels.allSatisfy { $0.leaks.keys.allSatisfy(programme.indices.contains) },
                     "a programme of \(programme.map(\.count)) frames for \(channels.count) channels")
        var mixed: [[Double]] = []
        for (c, channel) in channels.enumerated() {
            let p = channel.polynomial, q = channel.biquad
            var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
            var out = [Double](repeating: 0, count: frames)
            for n in 0..<frames {
                let x = Double(programme[c][n])
                let v = x * (p[0] + x * (p[1] + x * (p[2] + x * (p[3] + x * p[4]))))
                let y = q[0] * v + q[1] * x1 + q[2] * x2 - q[3] * y1 - q[4] * y2
                x2 = x1; x1 = v; y2 = y1; y1 = y
                var u = channel.gain * y * (channel.invert ? -1 : 1)
                for (from, g) in channel.leaks { u += g * Double(programme[from][n]) }
                out[n] = u
            }
            mixed.append(out)
        }
        var state = seed
        return try mixed.enumerated().map { c, signal in
            let delayed = try delay == 0 ? signal : Self.delayed(signal, by: delay)
            let rms = channels[c].noiseRMS
            return delayed.map { Float($0 + (rms > 0 ? rms * Self.gaussian(&state) : 0)) }
        }
    }

    /// `x` delayed by `frames` (any real number ≥ 0): e^(−iωD) on its spectrum, over an FFT
    /// long enough that nothing wraps round.
    static func delayed(_ x: [Double], by frames: Double) throws -> [Double] {
        let size = RealFFT.powerOfTwo(atLeast: x.count + Int(frames.rounded(.up)) + 1)
        let fft = try RealFFT(size: size)
        let spectrum = fft.forward(x)
        let shifted = spectrum.indices.map { k -> Complex in
            // The Nyquist bin must stay real: its phase is taken as the nearest real value.
            let phase = -2 * Double.pi * Double(k) * frames / Double(size)
            return k == size / 2 ? spectrum[k] * cos(phase) : spectrum[k] * Complex(magnitude: 1, phase: phase)
        }
        return Array(fft.inverse(shifted).prefix(x.count))
    }

    /// One standard normal sample (Box-Muller) from a SplitMix64 stream.
    static func gaussian(_ state: inout UInt64) -> Double {
        func next() -> Double {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return (Double((z ^ (z >> 31)) >> 11) + 0.5) / 9_007_199_254_740_992
        }
        return (-2 * log(next())).squareRoot() * cos(2 * Double.pi * next())
    }
}

/// Closed forms the tests compare with.
enum Truth {
    /// The biquad's response at `hz` (b0, b1, b2, a1, a2; a0 = 1): the transfer function
    /// evaluated on the unit circle.
    static func biquad(_ q: [Double], hz: Double, sampleRate: Double) -> Complex {
        let w = 2 * Double.pi * hz / sampleRate
        let z1 = Complex(magnitude: 1, phase: -w), z2 = Complex(magnitude: 1, phase: -2 * w)
        return (Complex(q[0]) + z1 * q[1] + z2 * q[2]) / (Complex(1) + z1 * q[3] + z2 * q[4])
    }

    /// The amplitude of harmonic k (0 the offset) of `a1·x + … + a5·x⁵` for x = A·cos θ:
    /// xⁿ = Aⁿ/2ⁿ·Σ C(n, m)·e^(i(n−2m)θ), so cos(kθ) gets Aⁿ/2ⁿ⁻¹·C(n, (n−k)/2) from each
    /// n ≥ k of the same parity (half that for k = 0).
    static func harmonic(_ k: Int, polynomial a: [Double], amplitude A: Double) -> Double {
        var sum = 0.0
        for n in 1...5 where n >= k && (n - k) % 2 == 0 {
            let m = (n - k) / 2
            sum += a[n - 1] * pow(A, Double(n)) / pow(2, Double(n - (k == 0 ? 0 : 1))) * binomial(n, m)
        }
        return sum
    }

    static func binomial(_ n: Int, _ k: Int) -> Double {
        (0..<k).reduce(1.0) { $0 * Double(n - $1) / Double($1 + 1) }
    }

    /// A harmonic's level relative to the fundamental, dBc.
    static func harmonicDB(_ k: Int, polynomial: [Double], amplitude: Double) -> Double {
        20 * log10(abs(harmonic(k, polynomial: polynomial, amplitude: amplitude) / harmonic(1, polynomial: polynomial, amplitude: amplitude)))
    }

    /// White noise of `rms` measured over 20 Hz … `top` at `sampleRate`, dBFS.
    static func noiseDBFS(rms: Double, top: Double, sampleRate: Double) -> Double {
        10 * log10(2 * rms * rms * (top - 20) / (sampleRate / 2))
    }
}
