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
}

/// A container format jackwave writes, chosen by the file's extension.
public struct SoundFormat: Sendable, Equatable {
    /// libsndfile major format (`SF_FORMAT_WAV`, ...).
    public let major: Int32
    /// Lower-case extensions that select it.
    public let extensions: [String]
    /// Whether the format stores PCM at a chosen depth (false for lossy codecs).
    let isPCM: Bool
    /// Whether it can hold 32-bit integer and float samples (FLAC stops at 24 bits).
    let holdsFloat: Bool

    /// Formats by extension. WAV files past 4 GB would break, so `.wav` is written as RF64
    /// with libsndfile's auto-downgrade: a file that ends under 4 GB is a plain WAV.
    public static let all: [SoundFormat] = [
        SoundFormat(major: Int32(SF_FORMAT_RF64), extensions: ["wav"], isPCM: true, holdsFloat: true),
        SoundFormat(major: Int32(SF_FORMAT_RF64), extensions: ["rf64"], isPCM: true, holdsFloat: true),
        SoundFormat(major: Int32(SF_FORMAT_W64), extensions: ["w64"], isPCM: true, holdsFloat: true),
        SoundFormat(major: Int32(SF_FORMAT_CAF), extensions: ["caf"], isPCM: true, holdsFloat: true),
        SoundFormat(major: Int32(SF_FORMAT_AIFF), extensions: ["aiff", "aif"], isPCM: true, holdsFloat: true),
        SoundFormat(major: Int32(SF_FORMAT_FLAC), extensions: ["flac"], isPCM: true, holdsFloat: false),
        SoundFormat(major: Int32(SF_FORMAT_OGG), extensions: ["ogg", "oga"], isPCM: false, holdsFloat: false),
    ]

    /// The format for a path's extension, or nil when jackwave does not write it.
    public static func forPath(_ path: String) -> SoundFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        return all.first { $0.extensions.contains(ext) }
    }

    /// The libsndfile format word for a depth; nil when this format cannot hold it.
    /// `nil` depth means the default: float where the format holds it, else 24-bit
    /// (FLAC), else the codec's own (Vorbis).
    public func formatWord(depth: SampleDepth?) -> Int32? {
        if !isPCM {
            return depth == nil ? major | Int32(SF_FORMAT_VORBIS) : nil
        }
        let chosen = depth ?? (holdsFloat ? .float : .int24)
        if !holdsFloat && (chosen == .float || chosen == .int32) { return nil }
        return major | chosen.subtype
    }
}
