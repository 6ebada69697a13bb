import FoundationEssentials
import Glibc

extension LoudnessFeed {
    /// The run's loudness in one line, for the summary: `loudness: I -23.0 LUFS, LRA 2.1 LU,
    /// true peak -1.2 dBTP`; nil if the analysis fell behind (its figures would leave audio out)
    /// or measured nothing.
    public static func summaryLine(_ feed: LoudnessFeed) -> String? {
        guard !feed.hasStopped, let r = feed.latest else { return nil }
        let peak = r.columns.truePeaks.max() ?? -.infinity
        return "loudness: I \(text(r.columns.integrated)) LUFS, LRA \(text(r.columns.range)) LU, true peak \(text(peak)) dBTP"
    }

    /// One decimal, `-inf` for silence.
    package static func text(_ value: Float) -> String {
        value.isFinite ? String(printf: "%.1f", Double(value)) : (value < 0 ? "-inf" : "nan")
    }
}
