import CSndfile

/// Sample depth of a written file, as chosen with `--bits`.
public enum SampleDepth: String, Sendable, CaseIterable {
    case int16 = "16", int24 = "24", int32 = "32", float = "float"

    var subtype: Int32 {
        switch self {
        case .int16: Int32(SF_FORMAT_PCM_16)
        case .int24: Int32(SF_FORMAT_PCM_24)
        case .int32: Int32(SF_FORMAT_PCM_32)
        case .float: Int32(SF_FORMAT_FLOAT)
        }
    }

    /// The bits jackwave rounds (and dithers) to: 16 and 24. 32-bit integers hold every
    /// float sample's 24-bit mantissa, and float is what JACK delivers: both are written as
    /// they come, never dithered.
    public var quantizedBits: Int? {
        switch self {
        case .int16: 16
        case .int24: 24
        case .int32, .float: nil
        }
    }

    /// Bytes per sample in the file.
    public var bytes: Int {
        switch self {
        case .int16: 2
        case .int24: 3
        case .int32, .float: 4
        }
    }
}
