import CEbur128

/// What a `LoudnessMeter` is made to measure (libebur128's `EBUR128_MODE_*`); each mode
/// brings the ones it needs (short-term brings momentary). `LoudnessAnalyzer` asks for
/// momentary only; the others serve as libebur128's own answers to check it against.
public struct LoudnessModes: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// 400-ms loudness.
    public static let momentary = LoudnessModes(rawValue: EBUR128_MODE_M.rawValue)
    /// 3-s loudness.
    public static let shortTerm = LoudnessModes(rawValue: EBUR128_MODE_S.rawValue)
    /// Gated (programme) loudness.
    public static let integrated = LoudnessModes(rawValue: EBUR128_MODE_I.rawValue)
    /// Loudness range (EBU Tech 3342).
    public static let loudnessRange = LoudnessModes(rawValue: EBUR128_MODE_LRA.rawValue)
}
