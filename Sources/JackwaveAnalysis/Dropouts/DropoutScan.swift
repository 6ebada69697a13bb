/// A stretch of one input's samples checked 16 at a time for `DropoutDetector`: any (or all)
/// exact zeros, its peak, whether it equals the same stretch of the period before, and a
/// copy into the period being collected. A stretch with no zero cannot begin or end a run of
/// zeros, and one of zeros only goes on with one, so the detector takes either whole.
///
/// Concrete `SIMD16<Float>` compares and selects, reduced once per stretch: the standard
/// library's generic reductions and integer-vector compares are several times slower here
/// (BENCHMARKS.md, "Dropout detection on the writer thread").
struct DropoutScan {
    /// Samples per step; a stretch is a whole number of them.
    static let width = 16
    /// The stretch's length.
    let count: Int
    /// The largest |x| of the stretch.
    let peak: Float
    /// Whether some sample differs from the period before's (as floats: 0 equals -0, a NaN
    /// equals nothing).
    let differs: Bool
    /// Whether some sample, or every sample, is an exact zero (0.0 or -0.0).
    let anyZero: Bool
    let allZero: Bool

    /// Checks `count` samples (a multiple of `width`) from `x` against `previous`, copying
    /// them to `current`.
    init(_ x: UnsafePointer<Float>, count: Int, previous: UnsafePointer<Float>, current: UnsafeMutablePointer<Float>) {
        var zeros = SIMD16<Float>(repeating: 0), others = SIMD16<Float>(repeating: 0)
        var diff = SIMD16<Float>(repeating: 0), wide = SIMD16<Float>(repeating: 0)
        let raw = UnsafeRawPointer(x), before = UnsafeRawPointer(previous), into = UnsafeMutableRawPointer(current)
        var i = 0
        while i < count {
            let v = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self)
            let p = before.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self)
            let magnitude = unsafeBitCast(unsafeBitCast(v, to: SIMD16<UInt32>.self) & 0x7FFF_FFFF, to: SIMD16<Float>.self)
            zeros = zeros.replacing(with: 1, where: v .== 0)
            others = others.replacing(with: 1, where: v .!= 0)
            diff = diff.replacing(with: 1, where: v .!= p)
            wide = wide.replacing(with: magnitude, where: wide .< magnitude)
            into.storeBytes(of: v, toByteOffset: i &* 4, as: SIMD16<Float>.self)
            i &+= Self.width
        }
        self.count = count
        peak = Self.largest(wide)
        differs = Self.largest(diff) != 0
        anyZero = Self.largest(zeros) != 0
        allZero = Self.largest(others) == 0
    }

    /// The index of the last sample of the stretch at or above `level` in magnitude, if any
    /// (almost always the last one: a signal is rarely below −54 dBFS). A NaN is not loud,
    /// as in the sample-by-sample path.
    func lastIndex(in x: UnsafePointer<Float>, atLeast level: Float) -> Int? {
        guard peak >= level else { return nil }
        var k = count - 1
        while !(abs(x[k]) >= level) { k -= 1 }
        return k
    }

    /// The largest lane of a vector of non-negative lanes without NaN.
    private static func largest(_ v: SIMD16<Float>) -> Float {
        let a = v.lowHalf.replacing(with: v.highHalf, where: v.lowHalf .< v.highHalf)
        let b = a.lowHalf.replacing(with: a.highHalf, where: a.lowHalf .< a.highHalf)
        return Swift.max(Swift.max(b[0], b[1]), Swift.max(b[2], b[3]))
    }
}
