import Glibc

/// True peak (ITU-R BS.1770 Annex 2): the largest |sample| oversampled 4× at 48 kHz (2× at
/// 96 kHz, none from 192 kHz), per channel. Our own, as libebur128's interpolator cost most
/// of a measurement (docs/benchmarks-history.md, 4b).
///
/// Four channels to a vector, not four phases: frames are copied, padded to whole vectors,
/// behind the previous call's last ones, so any four adjacent channels' window is twelve
/// plain `SIMD4<Float>` loads: no de-interleaving, no broadcast, no horizontal maximum. The
/// filter is a 48-tap Hann-windowed sinc, each phase unity at DC, flat within 0.1 dB to a
/// quarter of the rate (EBU Tech 3341 cases 15–19). Peaks never fall below the sample peak.
public struct TruePeakFilter {
    /// Taps per phase.
    public static let tapsPerPhase = 12
    /// Oversampling factor at `sampleRate`: 4 below 96 kHz, 2 below 192 kHz, else 1.
    public let factor: Int
    public let channels: Int
    /// Channels rounded up to whole vectors of four: the stride of `line`.
    let width: Int
    /// `splats[4·k + p]`: tap k (0 = newest sample) of phase p in every lane.
    private let splats: [SIMD4<Float>]
    /// The last `tapsPerPhase − 1` frames of the call before (padded to `width`, oldest
    /// first), then this call's frames: the filter's memory and its input in one run of
    /// memory. Grows to the largest call; padding lanes stay zero.
    private var line: [Float]
    /// Per group of four channels: the largest |interpolated sample| since `takeRecent`, and
    /// the largest |sample| since the start.
    private var recentVectors: [SIMD4<Float>]
    private var sampleVectors: [SIMD4<Float>]
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
        width = (channels + 3) & ~3
        let taps = Self.design(factor: factor)
        splats = (0..<4 * Self.tapsPerPhase).map { SIMD4(repeating: taps[$0 / 4][$0 % 4]) }
        line = Array(repeating: 0, count: (Self.tapsPerPhase - 1) * width)
        recentVectors = Array(repeating: .zero, count: width / 4)
        sampleVectors = Array(repeating: .zero, count: width / 4)
        peaks = Array(repeating: 0, count: channels)
        recent = Array(repeating: 0, count: channels)
        samplePeaks = Array(repeating: 0, count: channels)
    }

    /// Forgets the frames before: the next call's audio does not follow them (a new
    /// connection's, after a server restart), so they must not ring into it. The peaks stay.
    public mutating func forgetHistory() {
        for i in 0..<(Self.tapsPerPhase - 1) * width { line[i] = 0 }
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

    /// Measures `count` interleaved frames: copies them into `line` behind the last call's
    /// frames, runs the four phases over each group of four channels, and keeps the last
    /// frames for the next call.
    public mutating func process(_ frames: UnsafePointer<Float>, count: Int) {
        guard count > 0 else { return }
        let memory = Self.tapsPerPhase - 1
        let width = width
        if line.count < (memory + count) * width {
            line.append(contentsOf: repeatElement(0, count: (memory + count) * width - line.count))
        }
        line.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            for i in 0..<count {
                (base + (memory &+ i) &* width).update(from: frames + i &* channels, count: channels)
            }
            splats.withUnsafeBufferPointer { k in
                for g in 0..<width / 4 {
                    Self.filter(UnsafeRawPointer(base + 4 &* g), stride: width, count: count, taps: k.baseAddress!,
                                largest: &recentVectors[g], largestSample: &sampleVectors[g])
                }
            }
            // The last `memory` frames become the next call's history (memmove: they may overlap).
            memmove(base, base + count &* width, memory &* width &* MemoryLayout<Float>.stride)
        }
        for c in 0..<channels {
            recent[c] = recentVectors[c / 4][c % 4]
            samplePeaks[c] = sampleVectors[c / 4][c % 4]
            peaks[c] = max(peaks[c], recent[c])
        }
    }

    /// One group of four channels over `count` frames: `window` points at the group's first
    /// lane of the oldest history frame, `stride` floats apart from frame to frame. Raises
    /// `largest` to every |interpolated sample| and |sample|, `largestSample` to every |sample|.
    @inline(__always)
    private static func filter(_ window: UnsafeRawPointer, stride: Int, count: Int, taps k: UnsafePointer<SIMD4<Float>>,
                               largest: inout SIMD4<Float>, largestSample: inout SIMD4<Float>) {
        let bytes = stride &* MemoryLayout<Float>.stride
        var top = largest
        var topSample = largestSample
        for i in 0..<count {
            let at = window + i &* bytes
            // x(t): t frames before the newest (tap t); loads need not be 16-byte aligned.
            func x(_ t: Int) -> SIMD4<Float> { at.loadUnaligned(fromByteOffset: (11 &- t) &* bytes, as: SIMD4<Float>.self) }
            var a0 = SIMD4<Float>.zero, a1 = a0, a2 = a0, a3 = a0
            for t in 0..<12 {
                let v = x(t)
                a0 += k[4 &* t] * v
                a1 += k[4 &* t &+ 1] * v
                a2 += k[4 &* t &+ 2] * v
                a3 += k[4 &* t &+ 3] * v
            }
            let sample = magnitude(x(0))
            topSample.replace(with: sample, where: topSample .< sample)
            var m = magnitude(a0)
            m.replace(with: sample, where: m .< sample)
            let m1 = magnitude(a1), m2 = magnitude(a2), m3 = magnitude(a3)
            m.replace(with: m1, where: m .< m1)
            m.replace(with: m2, where: m .< m2)
            m.replace(with: m3, where: m .< m3)
            top.replace(with: m, where: top .< m)
        }
        largest = top
        largestSample = topSample
    }

    /// |v| per lane: the sign bits cleared (one AND, where a compare-and-select per lane
    /// would cost several).
    @inline(__always)
    private static func magnitude(_ v: SIMD4<Float>) -> SIMD4<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD4<UInt32>.self) & SIMD4(repeating: 0x7fff_ffff), to: SIMD4<Float>.self)
    }

    /// Each channel's largest |interpolated sample| since the last call, and starts anew.
    public mutating func takeRecent() -> [Float] {
        defer {
            for c in recent.indices { recent[c] = 0 }
            for g in recentVectors.indices { recentVectors[g] = .zero }
        }
        return recent
    }
}
