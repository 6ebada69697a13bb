import Glibc

/// An impulse response from a sweep's deconvolution: circular, `samples.count` frames long.
/// Frame 0 is the sweep's first frame; what comes before it (the harmonics' responses)
/// wraps round to the end.
public struct ImpulseResponse: Sendable {
    public let samples: [Double]
    public let sampleRate: Double

    public init(samples: [Double], sampleRate: Double) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// The sample at frame `n`, read circularly.
    public subscript(circular n: Int) -> Double {
        let size = samples.count
        return samples[((n % size) + size) % size]
    }

    /// The windowed response's spectrum (its DTFT) at `frequency` Hz, phase referred to the
    /// window's centre (a pulse there has phase 0). Summed directly, not read off an FFT, so it
    /// holds at any frequency; the phasor advances by one complex multiplication a frame from an
    /// exact start, and its rounding stays near 1e-12 over the longest window.
    public func spectrum(at frequency: Double, window: ImpulseWindow) -> Complex {
        let range = window.frames
        let w = -2 * Double.pi * frequency / sampleRate
        let step = (cos(w), sin(w))
        let startPhase = w * (Double(range.lowerBound) - window.center)
        var z = (cos(startPhase), sin(startPhase))
        var re = 0.0, im = 0.0
        let size = samples.count
        samples.withUnsafeBufferPointer { x in
            var index = ((range.lowerBound % size) + size) % size
            for n in range {
                let v = x[index] * window.weight(at: n)
                re += v * z.0
                im += v * z.1
                z = (z.0 * step.0 - z.1 * step.1, z.0 * step.1 + z.1 * step.0)
                index += 1
                if index == size { index = 0 }
            }
        }
        return Complex(re, im)
    }

    /// The frame of the largest |sample| among frames `range` (read circularly).
    public func peak(in range: ClosedRange<Int>) -> Int {
        var best = range.lowerBound, largest = -1.0
        for n in range where abs(self[circular: n]) > largest {
            largest = abs(self[circular: n])
            best = n
        }
        return best
    }
}
