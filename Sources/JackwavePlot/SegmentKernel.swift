/// The per-sample inner loop of the column reduction: min, max and Σx² of a run of
/// interleaved frames that all fall in one column. A plot spends its time here, so for 1, 2,
/// 4, 8 and 16 channels it takes 16 samples at a time: lane `l` of a `SIMD16<Float>` always
/// carries channel `l % C`, and the lanes are folded into channels once per run.
enum SegmentKernel {
    /// Samples whose squares are summed in Float before moving the sums to Double: few
    /// enough that Float rounding stays near 1e-6 relative, many enough to be free.
    static let floatBlock = 256

    /// Folds `frames` frames at `p` into `stats[ch * channelStride]` for each channel `ch`.
    @inline(__always)
    static func fold(_ p: UnsafePointer<Float>, frames: Int, channels: Int,
                     into stats: UnsafeMutablePointer<ColumnStats>, channelStride: Int) {
        if 16 % channels == 0 {
            foldVectors(p, frames: frames, channels: channels, into: stats, channelStride: channelStride)
        } else {
            foldScalar(p, frames: frames, channels: channels, into: stats, channelStride: channelStride)
        }
        for ch in 0..<channels {
            stats[ch * channelStride].count += Int64(frames)
            stats[ch * channelStride].last = p[(frames - 1) * channels + ch]
        }
    }

    /// 16 samples a step; `channels` divides 16.
    private static func foldVectors(_ p: UnsafePointer<Float>, frames: Int, channels: Int,
                                    into stats: UnsafeMutablePointer<ColumnStats>, channelStride: Int) {
        let samples = frames * channels
        let vectors = samples / 16
        let raw = UnsafeRawPointer(p)
        var lo = SIMD16<Float>(repeating: .infinity)
        var hi = SIMD16<Float>(repeating: -.infinity)
        var sums = SIMD16<Double>(repeating: 0)
        var i = 0
        while i < vectors {
            let blockEnd = Swift.min(vectors, i + floatBlock)
            var squares = SIMD16<Float>(repeating: 0)
            while i < blockEnd {
                let v = raw.loadUnaligned(fromByteOffset: i &* 64, as: SIMD16<Float>.self)
                // Compare-and-select is one instruction pair per lane group; unlike
                // pointwiseMin it needs no NaN handling, which keeps the loop vectorised.
                lo = lo.replacing(with: v, where: v .< lo)
                hi = hi.replacing(with: v, where: v .> hi)
                squares += v * v
                i &+= 1
            }
            sums += SIMD16<Double>(squares)
        }
        for lane in 0..<16 {
            let s = stats + (lane % channels) * channelStride
            if lo[lane] < s.pointee.min { s.pointee.min = lo[lane] }
            if hi[lane] > s.pointee.max { s.pointee.max = hi[lane] }
            s.pointee.sumSquares += sums[lane]
        }
        var k = vectors * 16
        while k < samples {
            let s = stats + (k % channels) * channelStride
            let x = p[k]
            if x < s.pointee.min { s.pointee.min = x }
            if x > s.pointee.max { s.pointee.max = x }
            s.pointee.sumSquares += Double(x) * Double(x)
            k += 1
        }
    }

    /// Any channel count, one sample at a time.
    private static func foldScalar(_ p: UnsafePointer<Float>, frames: Int, channels: Int,
                                   into stats: UnsafeMutablePointer<ColumnStats>, channelStride: Int) {
        for ch in 0..<channels {
            var lo = stats[ch * channelStride].min
            var hi = stats[ch * channelStride].max
            var sum = 0.0
            var k = ch
            for _ in 0..<frames {
                let x = p[k]
                if x < lo { lo = x }
                if x > hi { hi = x }
                sum += Double(x) * Double(x)
                k += channels
            }
            stats[ch * channelStride].min = lo
            stats[ch * channelStride].max = hi
            stats[ch * channelStride].sumSquares += sum
        }
    }
}
