import Glibc

/// What `jackwave loudness` reports for one programme: EBU R 128's measures and the peaks.
public struct LoudnessSummary: Equatable, Sendable {
    /// Gated programme loudness, LUFS (−∞: nothing above the −70 LUFS gate).
    public var integrated: Double
    /// Loudness range, LU.
    public var loudnessRange: Double
    /// Largest 400-ms and 3-s loudness, LUFS, found on a 10-ms grid.
    public var maxMomentary: Double
    public var maxShortTerm: Double
    /// Largest true peak per channel, dBTP.
    public var truePeaks: [Double]
    /// Largest |sample| per channel, dBFS.
    public var samplePeaks: [Double]
    /// How the channels were weighted.
    public var weighting: ChannelWeighting
    /// Frames measured and their rate.
    public var frames: Int64
    public var sampleRate: Int

    /// The largest true peak of any channel, dBTP.
    public var truePeak: Double { truePeaks.max() ?? -.infinity }
    /// The largest sample peak of any channel, dBFS.
    public var samplePeak: Double { samplePeaks.max() ?? -.infinity }

    /// The summary of everything `analyzer` has measured (`frames` of them).
    public init(_ analyzer: LoudnessAnalyzer, weighting: ChannelWeighting, frames: Int64) {
        let meter = analyzer.meter
        integrated = analyzer.integrated
        loudnessRange = analyzer.loudnessRange
        maxMomentary = analyzer.maxMomentary
        maxShortTerm = analyzer.maxShortTerm
        truePeaks = (0..<meter.channels).map { Self.decibels(analyzer.truePeak(channel: $0)) }
        samplePeaks = (0..<meter.channels).map { Self.decibels(analyzer.samplePeak(channel: $0)) }
        self.weighting = weighting
        self.frames = frames
        sampleRate = meter.sampleRate
    }

    /// 20·log10 of a linear peak (−∞ for 0).
    public static func decibels(_ linear: Double) -> Double {
        linear > 0 ? 20 * log10(linear) : -.infinity
    }
}
