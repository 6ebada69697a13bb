import JackwaveDSP

/// Rounds float samples to exact multiples of one LSB of a 16- or 24-bit file, with TPDF
/// dither by default, before libsndfile stores them.
///
/// Why jackwave quantizes itself rather than leaving it to libsndfile: with clipping on,
/// libsndfile 1.2's WAV/AIFF/CAF writers turn a float `x` into `floor(x · 2^(bits-1))` (it
/// scales to 32 bits, rounds, then shifts), a bias of half an LSB, while its FLAC writer
/// rounds to nearest. A value that is already `k / 2^(bits-1)` goes through every one of them
/// unchanged (measured for every container and both depths), so rounding here makes the
/// result the same whatever the format, and the LSB is `1 / 2^(bits-1)` (1/32768, 1/8388608):
/// full scale 1.0 is `2^(bits-1)`, clipped by libsndfile to the largest code.
///
/// Dither: the sum of two independent uniform values, each one LSB peak to peak, so the
/// added noise is triangular over ±1 LSB (RMS LSB/√6) and the total error after rounding has
/// RMS LSB/2, independent of the signal. Without dither the error is plain rounding.
/// The work is done in `Double`: at 24 bits a sample scaled to LSB units needs more than a
/// float's 24-bit mantissa to keep the dither's fraction.
public struct Quantizer: Sendable {
    /// Scale from full scale to LSB units: 2^(bits-1).
    public let scale: Double
    /// Whether TPDF dither is added before rounding.
    public let dithers: Bool
    private var random: SplitMix64
    /// The codes a sample may take: a 16-bit file holds -32768 ... 32767.
    private let lowest: Double, highest: Double

    /// A quantizer for `bits` (16 or 24), seeded once (the writer creates one per run).
    public init(bits: Int, dither: Bool, seed: UInt64 = UInt64.random(in: .min ... .max)) {
        precondition(bits == 16 || bits == 24)
        scale = Double(1 << (bits - 1))
        dithers = dither
        random = SplitMix64(seed: seed)
        lowest = -scale
        highest = scale - 1
    }

    /// Quantizes `count` samples in place.
    public mutating func process(_ samples: UnsafeMutablePointer<Float>, count: Int) {
        if dithers {
            for i in 0..<count {
                // One 64-bit draw holds both uniform values: its two 32-bit halves. u1 - u2
                // is distributed as the sum of two centred uniforms: triangular on (-1, 1).
                let bits = random.next()
                let u1 = Double(UInt32(truncatingIfNeeded: bits)) * 0x1p-32
                let u2 = Double(UInt32(truncatingIfNeeded: bits >> 32)) * 0x1p-32
                samples[i] = quantize(Double(samples[i]) * scale + (u1 - u2))
            }
        } else {
            for i in 0..<count { samples[i] = quantize(Double(samples[i]) * scale) }
        }
    }

    /// Rounds a value in LSB units to the nearest code, clamps it to the depth's range and
    /// returns it in full-scale units (exact in a float for 16 and 24 bits).
    @inline(__always)
    private func quantize(_ v: Double) -> Float {
        let code = min(max(v.rounded(.toNearestOrEven), lowest), highest)
        return Float(code / scale)
    }
}
