/// Block peak: the largest absolute sample value of a block.
public enum Peak {
    /// The largest `|x|` over `count` samples (0 for an empty block): bit-for-bit what the plain
    /// loop `peak = max(peak, abs(x[i]))` gives, NaNs ignored as that loop ignores them, never
    /// `-0.0`. Realtime-safe: no allocation, no call, no branch per sample (compare-and-select).
    // realtime
    @inlinable
    public static func of(_ samples: UnsafePointer<Float>, count: Int) -> Float {
        let raw = UnsafeRawPointer(samples)
        var i = 0
        /// Four independent SSE chains (two AVX ones): enough to hide their latency behind the loads.
        var wide = SIMD16<Float>(repeating: 0)
        while i &+ 16 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self)
            wide = larger(wide, magnitude(v))
            i &+= 16
        }
        var narrow = larger(larger(wide.lowHalf.lowHalf, wide.lowHalf.highHalf),
                            larger(wide.highHalf.lowHalf, wide.highHalf.highHalf))
        while i &+ 4 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self)
            narrow = larger(narrow, magnitude(v))
            i &+= 4
        }
        var peak = largestLane(narrow)
        while i < count {
            peak = max(peak, abs(samples[i]))
            i &+= 1
        }
        return peak
    }

    // The helpers are written per concrete vector type on purpose: the standard library's
    // generic `SIMD` comparison is a lane-by-lane loop even when specialised, while the
    // concrete `SIMD4<Float>`/`SIMD16<Float>` comparisons lower to `cmpltps`.

    /// `|v|` lane by lane by clearing the sign bit (exact; a NaN stays a NaN).
    @inlinable @inline(__always)
    static func magnitude(_ v: SIMD16<Float>) -> SIMD16<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD16<UInt32>.self) & 0x7FFF_FFFF, to: SIMD16<Float>.self)
    }

    /// `|v|` lane by lane by clearing the sign bit (exact; a NaN stays a NaN).
    @inlinable @inline(__always)
    static func magnitude(_ v: SIMD4<Float>) -> SIMD4<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF, to: SIMD4<Float>.self)
    }

    /// Lane-wise `max(a, b)` with the plain loop's NaN rule: `b` only where `a < b`, which a NaN
    /// `b` never is, so an accumulator that starts at 0 never holds a NaN. (`pointwiseMax` is a
    /// scalar loop in the standard library.)
    // realtime
    @inlinable @inline(__always)
    static func larger(_ a: SIMD16<Float>, _ b: SIMD16<Float>) -> SIMD16<Float> {
        a.replacing(with: b, where: a .< b)
    }

    /// The largest of four lanes that hold no NaN (accumulators built with `larger`).
    // realtime
    @inlinable @inline(__always)
    static func largestLane(_ v: SIMD4<Float>) -> Float {
        max(max(v[0], v[1]), max(v[2], v[3]))
    }

    /// `larger` for four lanes.
    // realtime
    @inlinable @inline(__always)
    static func larger(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
        a.replacing(with: b, where: a .< b)
    }
}
