/// Recording and metering in one pass: the callback's hot path when it both records and
/// measures levels.
///
/// Why fused: at small periods a separate `Peak.of` per channel costs as much as the copy
/// itself (a loop set-up and a horizontal reduction per call, and a second read of every
/// source). Here each sample is loaded once, stored interleaved, and folded into its
/// channel's peak while it is still in a register.
extension Interleave {
    /// `interleave(from:channels:sourceOffset:frames:into:)`, and for every channel `c`
    /// raises `peaks[c]` to the largest `|x|` among the frames moved (`peaks` holds
    /// `channels` values; start them at 0 for a block's peak, or pass the same ones again
    /// to go on accumulating over the second region of a ring).
    ///
    /// The peaks follow `Peak.of`'s rules exactly (NaN ignored, never `-0.0`); the
    /// interleaved samples are bit-for-bit those `interleave` writes.
    @inlinable
    public static func interleaveMeasuringPeaks(from sources: UnsafePointer<UnsafePointer<Float>>, channels: Int,
                                                sourceOffset: Int, frames: Int,
                                                into destination: UnsafeMutablePointer<Float>,
                                                peaks: UnsafeMutablePointer<Float>) {
        switch channels {
        case 1: copyMeasuringPeak(sources[0] + sourceOffset, frames: frames, into: destination, peak: peaks)
        case 2: interleaveStereoMeasuringPeaks(sources[0] + sourceOffset, sources[1] + sourceOffset, frames: frames,
                                               into: destination, peaks: peaks)
        default: interleaveTiledMeasuringPeaks(from: sources, channels: channels, sourceOffset: sourceOffset,
                                               frames: frames, into: destination, peaks: peaks)
        }
    }

    /// One channel: a copy, 8 samples at a time, with the peak in two 4-lane accumulators
    /// (two independent compare-select chains, so a 64-sample block is 8 steps deep).
    @inlinable @inline(__always)
    static func copyMeasuringPeak(_ source: UnsafePointer<Float>, frames: Int,
                                  into destination: UnsafeMutablePointer<Float>, peak: UnsafeMutablePointer<Float>) {
        var a = SIMD4<Float>(repeating: 0), b = SIMD4<Float>(repeating: 0)
        var f = 0
        while f &+ 8 <= frames {
            let x = load4(source + f), y = load4(source + (f &+ 4))
            store4(x, destination + f)
            store4(y, destination + (f &+ 4))
            a = Peak.larger(a, Peak.magnitude(x))
            b = Peak.larger(b, Peak.magnitude(y))
            f &+= 8
        }
        var p = Peak.largestLane(Peak.larger(a, b))
        while f < frames {
            destination[f] = source[f]
            p = max(p, abs(source[f]))
            f &+= 1
        }
        peak.pointee = max(peak.pointee, p)
    }

    /// Two channels, 8 frames a step: four 4-sample loads become four interleaved 4-sample
    /// stores, and each channel's peak runs in two accumulators.
    @inlinable @inline(__always)
    static func interleaveStereoMeasuringPeaks(_ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>,
                                               frames: Int, into destination: UnsafeMutablePointer<Float>,
                                               peaks: UnsafeMutablePointer<Float>) {
        var l0 = SIMD4<Float>(repeating: 0), l1 = SIMD4<Float>(repeating: 0)
        var r0 = SIMD4<Float>(repeating: 0), r1 = SIMD4<Float>(repeating: 0)
        var f = 0
        while f &+ 8 <= frames {
            let l = load4(left + f), r = load4(right + f)
            let l2 = load4(left + (f &+ 4)), r2 = load4(right + (f &+ 4))
            let out = destination + (2 &* f)
            store4(SIMD4(l[0], r[0], l[1], r[1]), out)
            store4(SIMD4(l[2], r[2], l[3], r[3]), out + 4)
            store4(SIMD4(l2[0], r2[0], l2[1], r2[1]), out + 8)
            store4(SIMD4(l2[2], r2[2], l2[3], r2[3]), out + 12)
            l0 = Peak.larger(l0, Peak.magnitude(l))
            r0 = Peak.larger(r0, Peak.magnitude(r))
            l1 = Peak.larger(l1, Peak.magnitude(l2))
            r1 = Peak.larger(r1, Peak.magnitude(r2))
            f &+= 8
        }
        var pl = Peak.largestLane(Peak.larger(l0, l1))
        var pr = Peak.largestLane(Peak.larger(r0, r1))
        while f < frames {
            destination[2 &* f] = left[f]
            destination[2 &* f &+ 1] = right[f]
            pl = max(pl, abs(left[f]))
            pr = max(pr, abs(right[f]))
            f &+= 1
        }
        peaks[0] = max(peaks[0], pl)
        peaks[1] = max(peaks[1], pr)
    }

    /// Three or more channels: `interleaveTiled`'s 4 × 8 tiles. The eight 4-sample rows a
    /// tile stores hold one frame of 4 channels each, so their lane-wise maximum is
    /// already the 4 channels' peak over those frames: it is folded into `peaks[c..<c+4]`
    /// with one load and one store per tile, and no horizontal reduction at all.
    @inlinable @inline(__always)
    static func interleaveTiledMeasuringPeaks(from sources: UnsafePointer<UnsafePointer<Float>>, channels: Int,
                                              sourceOffset: Int, frames: Int,
                                              into destination: UnsafeMutablePointer<Float>,
                                              peaks: UnsafeMutablePointer<Float>) {
        let tiledChannels = channels & ~3
        let tiledFrames = frames & ~7
        let n = channels
        var f = 0
        while f < tiledFrames {
            let row = destination + f &* n
            let at = sourceOffset &+ f
            var c = 0
            while c < tiledChannels {
                let s0 = sources[c] + at, s1 = sources[c &+ 1] + at
                let s2 = sources[c &+ 2] + at, s3 = sources[c &+ 3] + at
                let a = load4(s0), b = load4(s1), d = load4(s2), e = load4(s3)
                let t0 = SIMD4(a[0], b[0], d[0], e[0]), t1 = SIMD4(a[1], b[1], d[1], e[1])
                let t2 = SIMD4(a[2], b[2], d[2], e[2]), t3 = SIMD4(a[3], b[3], d[3], e[3])
                store4(t0, row + c)
                store4(t1, row + (n &+ c))
                store4(t2, row + (2 &* n &+ c))
                store4(t3, row + (3 &* n &+ c))
                let a2 = load4(s0 + 4), b2 = load4(s1 + 4), d2 = load4(s2 + 4), e2 = load4(s3 + 4)
                let t4 = SIMD4(a2[0], b2[0], d2[0], e2[0]), t5 = SIMD4(a2[1], b2[1], d2[1], e2[1])
                let t6 = SIMD4(a2[2], b2[2], d2[2], e2[2]), t7 = SIMD4(a2[3], b2[3], d2[3], e2[3])
                store4(t4, row + (4 &* n &+ c))
                store4(t5, row + (5 &* n &+ c))
                store4(t6, row + (6 &* n &+ c))
                store4(t7, row + (7 &* n &+ c))
                // Two chains of four, not one of eight. Each starts from a value that is
                // never NaN (the stored peaks, zero), which `Peak.larger` needs to ignore NaNs.
                let x = Peak.larger(Peak.larger(Peak.larger(Peak.larger(load4(peaks + c), Peak.magnitude(t0)),
                                                            Peak.magnitude(t1)), Peak.magnitude(t2)), Peak.magnitude(t3))
                let y = Peak.larger(Peak.larger(Peak.larger(Peak.larger(SIMD4(repeating: 0), Peak.magnitude(t4)),
                                                            Peak.magnitude(t5)), Peak.magnitude(t6)), Peak.magnitude(t7))
                store4(Peak.larger(x, y), peaks + c)
                c &+= 4
            }
            while c < channels {
                let s = sources[c] + at
                for k in 0..<8 { row[k &* n &+ c] = s[k] }
                c &+= 1
            }
            f &+= 8
        }
        while f < frames {
            let row = destination + f &* n
            for c in 0..<channels {
                let x = sources[c][sourceOffset &+ f]
                row[c] = x
                if c < tiledChannels { peaks[c] = max(peaks[c], abs(x)) }
            }
            f &+= 1
        }
        // The channels left over from the 4-channel tiles (and so every channel of a 3-channel
        // block) are measured apart, by the vector kernel, rather than sample by sample.
        for c in tiledChannels..<channels {
            peaks[c] = max(peaks[c], Peak.of(sources[c] + sourceOffset, count: frames))
        }
    }
}
