import Glibc

/// Between a K-weighted mean square ("energy") and loudness in LUFS, as BS.1770 and
/// libebur128 convert: L = 10·log10(energy) − 0.691.
enum LoudnessScale {
    /// The −0.691 dB offset: BS.1770's K-filter gain at 1 kHz taken back out.
    static let offset = -0.691

    /// The loudness of `energy`, LUFS (−∞ for 0).
    static func loudness(_ energy: Double) -> Double {
        energy > 0 ? 10 * log10(energy) + offset : -.infinity
    }

    /// The energy behind `loudness` (0 for −∞ or NaN).
    static func energy(_ loudness: Double) -> Double {
        loudness.isNaN ? 0 : pow(10, (loudness - offset) / 10)
    }
}
