import Glibc

/// True peak (ITU-R BS.1770 Annex 2): the largest |sample| of the signal oversampled 4× at
/// 48 kHz (2× at 96 kHz, none from 192 kHz), per channel of interleaved frames.
///
/// Why our own: libebur128's true-peak interpolator took about 80 % of `jackwave loudness`
/// (11 of 14 CPU s on a 10-minute stereo file, BENCHMARKS.md 4b) and made 16 live channels
/// cost far more than the 5 % of a core allowed. Here the four phases of the polyphase filter
/// are the four lanes of one `SIMD4<Float>`: each input sample costs one vector
/// multiply and add per tap (12), for all four interpolated samples at once.
///
/// The filter is a 48-tap (12 per phase) Hann-windowed sinc, cut off at the input's Nyquist
/// frequency, each phase scaled to unity gain at DC; BS.1770 describes the same kind of
/// filter (order 48, 4 phases). Its passband is flat to within 0.1 dB up to a quarter of the
/// input rate, which the EBU's true-peak cases (Tech 3341 cases 15–19: sines at fs/4, fs/6,
/// fs/8 between their samples) check. Reported peaks never fall below the sample peak.
public struct TruePeakFilter {
    /// Taps per phase.
    public static let tapsPerPhase = 12
    /// Oversampling factor at `sampleRate`: 4 below 96 kHz, 2 below 192 kHz, else 1.
    public let factor: Int
    public let channels: Int
    /// `coefficients[k]`: tap k (0 = newest sample) of every phase, one phase per lane.
    private let coefficients: [SIMD4<Float>]
    /// Each channel's last `tapsPerPhase − 1` samples, oldest first: the filter's memory
    /// between calls.
    private var history: [Float]
    /// One channel's history followed by its samples of the current call, contiguous, so the
    /// window ending at any sample is a plain run of memory; grows to the largest call.
    private var scratch: [Float] = []
    /// Per channel: the largest |interpolated sample| since the start, and since `takeRecent`.
    public private(set) var peaks: [Float]
    private var recent: [Float]
    /// Per channel: the largest |sample| since the start (the sample peak, found in the same
    /// pass, so libebur128 need not look for it too).
    public private(set) var samplePeaks: [Float]

    public init(channels: Int, sampleRate: Int) {
        precondition(channels > 0 && sampleRate > 0)
        self.channels = channels
        factor = sampleRate < 96000 ? 4 : sampleRate < 192_000 ? 2 : 1
        coefficients = Self.design(factor: factor)
        history = Array(repeating: 0, count: channels * (Self.tapsPerPhase - 1))
        peaks = Array(repeating: 0, count: channels)
        recent = Array(repeating: 0, count: channels)
        samplePeaks = Array(repeating: 0, count: channels)
    }

    /// The polyphase filter: tap k of phase p is h[p + factor·k] of a Hann-windowed sinc of
    /// `factor · tapsPerPhase` taps; phases beyond `factor` stay zero. Each phase sums to 1.
    static func design(factor: Int) -> [SIMD4<Float>] {
        let taps = tapsPerPhase
        guard factor > 1 else {
            // No oversampling: phase 0 is the sample itself.
            return (0..<taps).map { $0 == 0 ? SIMD4(1, 0, 0, 0) : .zero }
        }
        let length = factor * taps
        let centre = Double(length - 1) / 2
        var h = [Double](repeating: 0, count: length)
        for n in 0..<length {
            let t = (Double(n) - centre) / Double(factor)
            let sinc = t == 0 ? 1 : sin(Double.pi * t) / (Double.pi * t)
            let window = 0.5 - 0.5 * cos(2 * Double.pi * (Double(n) + 0.5) / Double(length))
            h[n] = sinc * window
        }
        var out = [SIMD4<Float>](repeating: .zero, count: taps)
        for p in 0..<factor {
            let sum = (0..<taps).reduce(0.0) { $0 + h[p + factor * $1] }
            // Phase p's output at input step m is the sum over k of h[p + factor·k]·x[m − k].
            for k in 0..<taps { out[k][p] = Float(h[p + factor * k] / sum) }
        }
        return out
    }

    /// Measures `count` interleaved frames, a channel at a time: its history and samples
    /// laid out in `scratch`, then one pass of the 12-tap window over them.
    public mutating func process(_ frames: UnsafePointer<Float>, count: Int) {
        guard count > 0 else { return }
        let memory = Self.tapsPerPhase - 1
        if scratch.count < memory + count { scratch = Array(repeating: 0, count: memory + count) }
        let k = coefficients
        // The taps as locals: the loop below then keeps them in registers.
        let (k0, k1, k2, k3, k4, k5) = (k[0], k[1], k[2], k[3], k[4], k[5])
        let (k6, k7, k8, k9, k10, k11) = (k[6], k[7], k[8], k[9], k[10], k[11])
        scratch.withUnsafeMutableBufferPointer { buffer in
            history.withUnsafeMutableBufferPointer { hist in
                let line = buffer.baseAddress!
                for c in 0..<channels {
                    let past = hist.baseAddress! + c * memory
                    line.update(from: past, count: memory)
                    for i in 0..<count { line[memory &+ i] = frames[i &* channels &+ c] }
                    var largest = recent[c]
                    var largestSample = samplePeaks[c]
                    for i in 0..<count {
                        // x[0] is the oldest of the window, x[11] the newest (tap 0).
                        let x = line + i
                        var acc = k0 * x[11]
                        acc += k1 * x[10]
                        acc += k2 * x[9]
                        acc += k3 * x[8]
                        acc += k4 * x[7]
                        acc += k5 * x[6]
                        acc += k6 * x[5]
                        acc += k7 * x[4]
                        acc += k8 * x[3]
                        acc += k9 * x[2]
                        acc += k10 * x[1]
                        acc += k11 * x[0]
                        // Scalar: `pointwiseMax` stayed a call per sample (a quarter of the time).
                        let m = max(max(abs(acc.x), abs(acc.y)), max(abs(acc.z), abs(acc.w)))
                        let sample = abs(x[11])
                        largestSample = max(largestSample, sample)
                        largest = max(largest, max(m, sample))
                    }
                    past.update(from: line + count, count: memory)
                    recent[c] = largest
                    samplePeaks[c] = largestSample
                    peaks[c] = max(peaks[c], recent[c])
                }
            }
        }
    }

    /// Each channel's largest |interpolated sample| since the last call, and starts anew.
    public mutating func takeRecent() -> [Float] {
        defer { for c in recent.indices { recent[c] = 0 } }
        return recent
    }
}
