/// Converting between JACK's one-buffer-per-port layout and interleaved frames. Raw pointers
/// and counts, so the kernels run unchanged in the callback and offline.
public enum Interleave {
    /// Writes `frames` interleaved frames of `channels` samples into `destination`, channel `c`
    /// from `sources[c] + sourceOffset`. No alignment is assumed (ring regions and port buffers
    /// at an offset are arbitrary): the vector loads and stores are unaligned.
    // realtime
    @inlinable
    public static func interleave(from sources: UnsafePointer<UnsafePointer<Float>>, channels: Int,
                                  sourceOffset: Int, frames: Int,
                                  into destination: UnsafeMutablePointer<Float>) {
        switch channels {
        case 1: destination.update(from: sources[0] + sourceOffset, count: frames)
        case 2: interleaveStereo(sources[0] + sourceOffset, sources[1] + sourceOffset, frames: frames, into: destination)
        case 3: interleaveTriple(from: sources, sourceOffset: sourceOffset, frames: frames, into: destination)
        default: interleaveTiled(from: sources, channels: channels, sourceOffset: sourceOffset, frames: frames,
                                 into: destination)
        }
    }

    /// Two channels, four frames at a time: two 4-sample loads become two 4-sample stores
    /// (`l0 r0 l1 r1`, `l2 r2 l3 r3`), where a scalar loop does eight stores.
    // realtime
    @inlinable @inline(__always)
    static func interleaveStereo(_ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, frames: Int,
                                 into destination: UnsafeMutablePointer<Float>) {
        var f = 0
        while f &+ 4 <= frames {
            let l = load4(left + f), r = load4(right + f)
            store4(SIMD4(l[0], r[0], l[1], r[1]), destination + (2 &* f))
            store4(SIMD4(l[2], r[2], l[3], r[3]), destination + (2 &* f &+ 4))
            f &+= 4
        }
        while f < frames {
            destination[2 &* f] = left[f]
            destination[2 &* f &+ 1] = right[f]
            f &+= 1
        }
    }

    /// Three or more channels, as tiles of 4 channels × 8 frames (two 4 × 4 transposes in
    /// registers), rows of frames outermost: the destination is written front to back and each
    /// source read 32 bytes at a time. Going channel by channel stores with a stride of
    /// `channels` samples, one cache line per store at high channel counts.
    // realtime
    @inlinable @inline(__always)
    static func interleaveTiled(from sources: UnsafePointer<UnsafePointer<Float>>, channels: Int,
                                sourceOffset: Int, frames: Int,
                                into destination: UnsafeMutablePointer<Float>) {
        forEachTile(channels: channels, frames: frames) { c, f in
            _ = moveTile(from: sources, channel: c, frame: sourceOffset &+ f,
                         into: destination + (f &* channels &+ c), stride: channels)
        }
        interleaveLeftovers(from: sources, channels: channels, sourceOffset: sourceOffset, frames: frames,
                            into: destination)
    }

    /// Calls `body(channel, frame)` for the first channel and frame of every whole tile of
    /// 4 channels × 8 frames, rows of frames outermost (see `interleaveTiled` for why).
    /// The closure is not escaping and is inlined: nothing is allocated.
    // realtime
    @inlinable @inline(__always)
    static func forEachTile(channels: Int, frames: Int, _ body: (_ channel: Int, _ frame: Int) -> Void) {
        let tiledChannels = channels & ~3
        let tiledFrames = frames & ~7
        var f = 0
        while f < tiledFrames {
            var c = 0
            while c < tiledChannels {
                body(c, f)
                c &+= 4
            }
            f &+= 8
        }
    }

    /// Three channels, four frames a step (`moveTriple`), then the leftover frames.
    // realtime
    @inlinable @inline(__always)
    static func interleaveTriple(from sources: UnsafePointer<UnsafePointer<Float>>, sourceOffset: Int, frames: Int,
                                 into destination: UnsafeMutablePointer<Float>) {
        let stepped = frames & ~3
        var f = 0
        while f < stepped {
            _ = moveTriple(sources, offset: sourceOffset &+ f, into: destination + 3 &* f)
            f &+= 4
        }
        interleaveFrames(from: sources, channels: 3, sourceOffset: sourceOffset, frames: stepped..<frames,
                         into: destination)
    }

    /// Three channels, four frames a step: three 4-sample loads become three 4-sample
    /// stores (`a0 b0 c0 a1`, `b1 c1 a2 b2`, `c2 a3 b3 c3`), where a scalar loop does twelve.
    /// Returns the loaded samples (four frames of each channel).
    // realtime
    @inlinable @inline(__always)
    static func moveTriple(_ sources: UnsafePointer<UnsafePointer<Float>>, offset: Int,
                           into out: UnsafeMutablePointer<Float>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let a = load4(sources[0] + offset), b = load4(sources[1] + offset), c = load4(sources[2] + offset)
        store4(SIMD4(a[0], b[0], c[0], a[1]), out)
        store4(SIMD4(b[1], c[1], a[2], b[2]), out + 4)
        store4(SIMD4(c[2], a[3], b[3], c[3]), out + 8)
        return (a, b, c)
    }

    /// What the 4 × 8 tiles leave of a block: the last `channels % 4` channels of the tiled
    /// frames, then every channel of the last `frames % 8` frames, sample by sample.
    // realtime
    @inlinable @inline(__always)
    static func interleaveLeftovers(from sources: UnsafePointer<UnsafePointer<Float>>, channels: Int,
                                    sourceOffset: Int, frames: Int,
                                    into destination: UnsafeMutablePointer<Float>) {
        let tiledFrames = frames & ~7
        for c in (channels & ~3)..<channels {
            let s = sources[c] + sourceOffset
            for f in 0..<tiledFrames { destination[f &* channels &+ c] = s[f] }
        }
        interleaveFrames(from: sources, channels: channels, sourceOffset: sourceOffset, frames: tiledFrames..<frames,
                         into: destination)
    }

    /// Every channel of the frames in `range`, sample by sample (the tail a vector loop leaves).
    // realtime
    @inlinable @inline(__always)
    static func interleaveFrames(from sources: UnsafePointer<UnsafePointer<Float>>, channels: Int,
                                 sourceOffset: Int, frames range: Range<Int>,
                                 into destination: UnsafeMutablePointer<Float>) {
        for f in range {
            let row = destination + f &* channels
            for c in 0..<channels { row[c] = sources[c][sourceOffset &+ f] }
        }
    }

    /// Eight frames of four channels (`sources[channel ..< channel+4]` from `frame`) as
    /// two 4 × 4 transposes: stores eight rows of four samples, `stride` samples apart from
    /// `destination`, and returns them (one frame of the four channels each).
    // realtime
    @inlinable @inline(__always)
    static func moveTile(from sources: UnsafePointer<UnsafePointer<Float>>, channel c: Int, frame at: Int,
                         into destination: UnsafeMutablePointer<Float>, stride n: Int) -> TileRows {
        let s0 = sources[c] + at, s1 = sources[c &+ 1] + at
        let s2 = sources[c &+ 2] + at, s3 = sources[c &+ 3] + at
        let a = load4(s0), b = load4(s1), d = load4(s2), e = load4(s3)
        let a2 = load4(s0 + 4), b2 = load4(s1 + 4), d2 = load4(s2 + 4), e2 = load4(s3 + 4)
        let rows = TileRows(SIMD4(a[0], b[0], d[0], e[0]), SIMD4(a[1], b[1], d[1], e[1]),
                            SIMD4(a[2], b[2], d[2], e[2]), SIMD4(a[3], b[3], d[3], e[3]),
                            SIMD4(a2[0], b2[0], d2[0], e2[0]), SIMD4(a2[1], b2[1], d2[1], e2[1]),
                            SIMD4(a2[2], b2[2], d2[2], e2[2]), SIMD4(a2[3], b2[3], d2[3], e2[3]))
        store4(rows.0, destination)
        store4(rows.1, destination + n)
        store4(rows.2, destination + 2 &* n)
        store4(rows.3, destination + 3 &* n)
        store4(rows.4, destination + 4 &* n)
        store4(rows.5, destination + 5 &* n)
        store4(rows.6, destination + 6 &* n)
        store4(rows.7, destination + 7 &* n)
        return rows
    }

    /// The eight rows of a tile, one frame of four channels each.
    @usableFromInline typealias TileRows = (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>,
                                            SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    // realtime
    @inlinable @inline(__always)
    static func load4(_ p: UnsafePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
    }

    // realtime
    @inlinable @inline(__always)
    static func store4(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<Float>.self)
    }

    /// Splits `frames` interleaved frames of `channels` samples into one buffer per channel
    /// (`destinations[c]`, written from index `destinationOffset`).
    @inlinable
    public static func deinterleave(_ source: UnsafePointer<Float>, channels: Int, frames: Int,
                                    into destinations: UnsafePointer<UnsafeMutablePointer<Float>>,
                                    destinationOffset: Int = 0) {
        for c in 0..<channels {
            let out = destinations[c] + destinationOffset
            var input = source + c
            for f in 0..<frames {
                out[f] = input.pointee
                input += channels
            }
        }
    }
}
