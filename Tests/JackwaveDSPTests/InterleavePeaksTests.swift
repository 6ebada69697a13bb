import JackwaveDSP
import Testing

/// Per-channel source buffers with a deterministic signed noise, released by `release()`.
private struct Sources {
    let pointers: [UnsafeMutablePointer<Float>]
    init(channels: Int, length: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        pointers = (0..<channels).map { _ in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: max(1, length))
            for f in 0..<length { p[f] = Float(Double(rng.next() >> 11) / Double(1 << 53) * 2 - 1) }
            return p
        }
    }
    func release() { pointers.forEach { $0.deallocate() } }

    /// The fused kernel over `frames` frames from `offset`; returns the interleaved samples
    /// and the peaks, starting the peaks from `initialPeaks`.
    func fused(offset: Int, frames: Int, initialPeaks: [Float]) -> (samples: [Float], peaks: [Float]) {
        var out = [Float](repeating: .nan, count: pointers.count * frames)
        var peaks = initialPeaks
        pointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                peaks.withUnsafeMutableBufferPointer { p in
                    Interleave.interleaveMeasuringPeaks(from: s.baseAddress!, channels: pointers.count,
                                                        sourceOffset: offset, frames: frames,
                                                        into: o.baseAddress ?? UnsafeMutablePointer(bitPattern: 8)!,
                                                        peaks: p.baseAddress!)
                }
            }
        }
        return (out, peaks)
    }

    /// What the separate kernels give: `interleave`, and `Peak.of` per channel.
    func separate(offset: Int, frames: Int) -> (samples: [Float], peaks: [Float]) {
        var out = [Float](repeating: .nan, count: pointers.count * frames)
        pointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                Interleave.interleave(from: s.baseAddress!, channels: pointers.count, sourceOffset: offset,
                                      frames: frames, into: o.baseAddress ?? UnsafeMutablePointer(bitPattern: 8)!)
            }
        }
        return (out, pointers.map { Peak.of($0 + offset, count: frames) })
    }
}

@Suite("Interleave while measuring peaks")
struct InterleavePeaksTests {
    @Test("the fused kernel writes what interleave writes and measures what Peak.of measures",
          arguments: [1, 2, 3, 4, 5, 6, 7, 8, 17, 64, 66])
    func fusedEqualsSeparate(channels: Int) {
        for frames in [0, 1, 3, 7, 8, 9, 31, 64, 65, 256] {
            for offset in [0, 1, 5] {
                let sources = Sources(channels: channels, length: frames + offset, seed: UInt64(channels * 1000 + frames))
                defer { sources.release() }
                let fused = sources.fused(offset: offset, frames: frames,
                                          initialPeaks: [Float](repeating: 0, count: channels))
                let separate = sources.separate(offset: offset, frames: frames)
                #expect(fused.samples == separate.samples, "\(channels) ch, \(frames) frames, offset \(offset)")
                #expect(fused.peaks == separate.peaks, "\(channels) ch, \(frames) frames, offset \(offset)")
            }
        }
    }

    @Test("peaks accumulate over two calls, as for the two regions of a ring", arguments: [1, 2, 3, 6, 16])
    func peaksAccumulateAcrossCalls(channels: Int) {
        // A split off the 8-frame steps (so both calls have scalar tails), and every channel's
        // largest sample in the first call: a second call that overwrote would lose it.
        let frames = 64, split = 21
        let sources = Sources(channels: channels, length: frames, seed: 7)
        defer { sources.release() }
        for c in 0..<channels { sources.pointers[c][5 + c % 8] = c % 2 == 0 ? 1.5 : -1.5 }
        let first = sources.fused(offset: 0, frames: split, initialPeaks: [Float](repeating: 0, count: channels))
        let both = sources.fused(offset: split, frames: frames - split, initialPeaks: first.peaks)
        #expect(both.peaks == sources.separate(offset: 0, frames: frames).peaks)
    }

    @Test("a NaN sample is ignored and never hides a larger sample of its channel",
          arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func nanIsIgnored(channels: Int) {
        let frames = 19
        let sources = Sources(channels: channels, length: frames, seed: 3)
        defer { sources.release() }
        for c in 0..<channels {
            for f in 0..<frames { sources.pointers[c][f] = 0.25 }
            // NaNs where every accumulator chain starts (frames 0 and 4 of an 8-frame step,
            // and of the next step), and in the scalar tail (17); the peak right after one.
            for f in [0, 4, 9, 12, 17] { sources.pointers[c][f] = .nan }
            sources.pointers[c][1] = -0.75
        }
        let fused = sources.fused(offset: 0, frames: frames, initialPeaks: [Float](repeating: 0, count: channels))
        #expect(fused.peaks == [Float](repeating: 0.75, count: channels))
    }

    @Test("the peak of an all-negative-zero block is +0", arguments: [1, 2, 4])
    func negativeZeroReadsPlusZero(channels: Int) {
        let sources = Sources(channels: channels, length: 16, seed: 1)
        defer { sources.release() }
        for c in 0..<channels { for f in 0..<16 { sources.pointers[c][f] = -0.0 } }
        let fused = sources.fused(offset: 0, frames: 16, initialPeaks: [Float](repeating: 0, count: channels))
        #expect(fused.peaks.allSatisfy { $0 == 0 && $0.sign == .plus })
    }
}
