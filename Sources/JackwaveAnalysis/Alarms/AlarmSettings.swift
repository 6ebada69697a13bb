import Glibc

/// `--silence LEVEL:DURATION` and `--clip N`: what counts as dead air and as clipping.
public struct AlarmSettings: Sendable, Equatable {
    /// The feed is silent while every input's peak stays below `silenceLevel` (linear); dead
    /// air is a silence of `silenceSeconds` or longer. nil: no dead-air alarm.
    public var silenceLevel: Float?
    public var silenceSeconds: Double = 30
    /// `N` consecutive samples of one input at full scale (`|x| ≥ fullScale`) are one clip.
    /// nil: no clipping alarm.
    public var clipSamples: Int?

    /// A sample this close to full scale counts as clipped (−0.0009 dBFS): a 16-bit source's
    /// largest positive sample (32767/32768) counts, as does anything a float stream carries
    /// beyond ±1.
    public static let fullScale: Float = 0.9999

    /// Whether either alarm is asked for.
    public var isOn: Bool { silenceLevel != nil || clipSamples != nil }

    public init(silenceLevel: Float? = nil, silenceSeconds: Double = 30, clipSamples: Int? = nil) {
        self.silenceLevel = silenceLevel
        self.silenceSeconds = silenceSeconds
        self.clipSamples = clipSamples
    }

    /// `-50dB:30s` (or a linear level, `0.003:30`; `2m` for minutes): the level, then how
    /// long; nil if either is not understood (the level at most 0 dBFS, 0.1 s to a day).
    public static func parseSilence(_ text: String) -> (level: Float, seconds: Double)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let levelText = parts[0].lowercased()
        let level: Double
        if levelText.hasSuffix("db") {
            guard let db = Double(levelText.dropLast(2)), db.isFinite, db <= 0 else { return nil }
            level = pow10(db / 20)
        } else {
            guard let linear = Double(levelText), linear > 0, linear <= 1 else { return nil }
            level = linear
        }
        var durationText = parts[1].lowercased()
        var scale = 1.0
        if durationText.hasSuffix("m") { scale = 60; durationText.removeLast() } else if durationText.hasSuffix("s") { durationText.removeLast() }
        guard let count = Double(durationText), count.isFinite else { return nil }
        let seconds = count * scale
        guard seconds >= 0.1, seconds <= 86400, level > 0 else { return nil }
        return (Float(level), seconds)
    }

    /// 10^x without Foundation.
    private static func pow10(_ x: Double) -> Double { exp(x * 2.302_585_092_994_046) }
}
