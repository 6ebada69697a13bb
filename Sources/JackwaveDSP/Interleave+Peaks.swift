/// Recording and metering in one pass: each sample is loaded once, stored interleaved and
/// folded into its channel's peak while still in a register. A separate `Peak.of` per
/// channel reads every source again, which at small periods costs as much as the copy.
extension Interleave {
    /// `interleave(from:channels:sourceOffset:frames:into:)`, also raising `peaks[c]` to the
    /// largest `|x|` of channel `c` among the frames moved (start them at 0, or pass them again
    /// to go on over a ring's second region). Peaks follow `Peak.of`'s rules exactly.
    // realtime
    @inlinable
    public static func interleaveMeasuringPeaks(from sources: UnsafePointer<UnsafePointer<Float>>, channels: Int,
                                                sourceOffset: Int, frames: Int,
                                                into destination: UnsafeMutablePointer<Float>,
                                                peaks: UnsafeMutablePointer<Float>) {
        switch channels {
        case 1: copyMeasuringPeak(sources[0] + sourceOffset, frames: frames, into: destination, peak: peaks)
        case 2: interleaveStereoMeasuringPeaks(sources[0] + sourceOffset, sources[1] + sourceOffset, frames: frames,
                                               into: destination, peaks: peaks)
        case 3: interleaveTripleMeasuringPeaks(from: sources, sourceOffset: sourceOffset, frames: frames,
                                               into: destination, peaks: peaks)
        default: interleaveTiledMeasuringPeaks(from: sources, channels: channels, sourceOffset: sourceOffset,
                                               frames: frames, into: destination, peaks: peaks)
        }
    }

    /// One channel: a copy, with the peak in two independent 4-lane accumulators.
    // realtime
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
    // realtime
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

    /// Three channels: `moveTriple`'s transposes, eight frames a step, each channel's peak
    /// in accumulators of its own; the leftover frames are measured by `Peak.of`.
    // realtime
    @inlinable @inline(__always)
    static func interleaveTripleMeasuringPeaks(from sources: UnsafePointer<UnsafePointer<Float>>, sourceOffset: Int,
                                               frames: Int, into destination: UnsafeMutablePointer<Float>,
                                               peaks: UnsafeMutablePointer<Float>) {
        // Two accumulators a channel (frames 0–3 and 4–7 of each 8-frame step): chains half
        // as deep, as in the stereo kernel.
        let zero = SIMD4<Float>(repeating: 0)
        var pa = zero, pb = zero, pc = zero, qa = zero, qb = zero, qc = zero
        let stepped = frames & ~7
        var f = 0
        while f < stepped {
            let (a, b, c) = moveTriple(sources, offset: sourceOffset &+ f, into: destination + 3 &* f)
            let (a2, b2, c2) = moveTriple(sources, offset: sourceOffset &+ f &+ 4, into: destination + 3 &* (f &+ 4))
            pa = Peak.larger(pa, Peak.magnitude(a))
            pb = Peak.larger(pb, Peak.magnitude(b))
            pc = Peak.larger(pc, Peak.magnitude(c))
            qa = Peak.larger(qa, Peak.magnitude(a2))
            qb = Peak.larger(qb, Peak.magnitude(b2))
            qc = Peak.larger(qc, Peak.magnitude(c2))
            f &+= 8
        }
        pa = Peak.larger(pa, qa)
        pb = Peak.larger(pb, qb)
        pc = Peak.larger(pc, qc)
        interleaveFrames(from: sources, channels: 3, sourceOffset: sourceOffset, frames: stepped..<frames,
                         into: destination)
        peaks[0] = max(peaks[0], Peak.largestLane(pa))
        peaks[1] = max(peaks[1], Peak.largestLane(pb))
        peaks[2] = max(peaks[2], Peak.largestLane(pc))
        if frames > stepped {
            let at = sourceOffset &+ stepped
            for c in 0..<3 { peaks[c] = max(peaks[c], Peak.of(sources[c] + at, count: frames &- stepped)) }
        }
    }

    /// Three or more channels, in `interleaveTiled`'s 4 × 8 tiles. Each stored row is one frame
    /// of 4 channels, so the rows' lane-wise maximum is already those channels' peak: one load
    /// and one store of `peaks` per tile, no horizontal reduction.
    // realtime
    @inlinable @inline(__always)
    static func interleaveTiledMeasuringPeaks(from sources: UnsafePointer<UnsafePointer<Float>>, channels: Int,
                                              sourceOffset: Int, frames: Int,
                                              into destination: UnsafeMutablePointer<Float>,
                                              peaks: UnsafeMutablePointer<Float>) {
        forEachTile(channels: channels, frames: frames) { c, f in
            let t = moveTile(from: sources, channel: c, frame: sourceOffset &+ f,
                             into: destination + (f &* channels &+ c), stride: channels)
            // Two chains of four, not one of eight. Each starts from a value that is never
            // NaN (the stored peaks, zero), which `Peak.larger` needs to ignore NaNs.
            let x = Peak.larger(Peak.larger(Peak.larger(Peak.larger(load4(peaks + c), Peak.magnitude(t.0)),
                                                        Peak.magnitude(t.1)), Peak.magnitude(t.2)), Peak.magnitude(t.3))
            let y = Peak.larger(Peak.larger(Peak.larger(Peak.larger(SIMD4(repeating: 0), Peak.magnitude(t.4)),
                                                        Peak.magnitude(t.5)), Peak.magnitude(t.6)), Peak.magnitude(t.7))
            store4(Peak.larger(x, y), peaks + c)
        }
        interleaveLeftovers(from: sources, channels: channels, sourceOffset: sourceOffset, frames: frames,
                            into: destination)
        let tiledChannels = channels & ~3
        let tiledFrames = frames & ~7
        // What the tiles did not measure: the tiled channels' last frames, and the leftover
        // channels whole.
        if frames > tiledFrames {
            for c in 0..<tiledChannels {
                peaks[c] = max(peaks[c], Peak.of(sources[c] + (sourceOffset &+ tiledFrames), count: frames &- tiledFrames))
            }
        }
        for c in tiledChannels..<channels {
            peaks[c] = max(peaks[c], Peak.of(sources[c] + sourceOffset, count: frames))
        }
    }
}
