import CSndfile
import JackwaveVocabulary

/// `--quality Q|RATEk`: how hard a lossy codec compresses, turned into libsndfile's settings
/// (`settings(for:channels:sampleRate:)`):
/// - `quality(Q)`, 0 (smallest) to 1 (best): compression level 1 − Q, which libsndfile makes
///   LAME's VBR `-V` 10 × (1 − Q), Vorbis's quality Q, or Opus's 6 + 250 × Q kbit/s a channel.
/// - `bitRate(K)`, kbit/s: MP3 at one of MPEG's constant rates, or Opus aiming at K in all.
///   Vorbis through libsndfile has no bit-rate setting.
public enum CompressionQuality: Sendable, Equatable {
    case quality(Double)
    case bitRate(kilobitsPerSecond: Int)

    /// `0.6` or `128k` (`128K`, `128kbps` too); nil for anything else.
    public static func parse(_ text: String) -> CompressionQuality? {
        let lower = text.lowercased()
        for suffix in ["kbps", "kbit/s", "k"] where lower.hasSuffix(suffix) {
            guard let k = Int(lower.dropLast(suffix.count)), k > 0 else { return nil }
            return .bitRate(kilobitsPerSecond: k)
        }
        guard let q = Double(lower), q.isFinite, (0...1).contains(q) else { return nil }
        return .quality(q)
    }

    /// MPEG Layer III's bit rates at a sample rate: MPEG-1 (32 kHz and up), MPEG-2 (16 to
    /// 24 kHz), MPEG-2.5 (8 to 12 kHz, of which LAME takes up to 64 kbit/s).
    public static func mp3BitRates(sampleRate: Int) -> [Int] {
        if sampleRate >= 32000 { return [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] }
        if sampleRate >= 16000 { return [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160] }
        return [8, 16, 24, 32, 40, 48, 56, 64]
    }

    /// What libsndfile is told, before the first frame: `SFC_SET_COMPRESSION_LEVEL`, then for
    /// a constant MP3 bit rate `SFC_SET_BITRATE_MODE` (LAME re-reads the level in that mode).
    /// Throws one line (naming `option`) when the format takes no such setting or the value is
    /// out of its range.
    public func settings(for format: SoundFormat, channels: Int, sampleRate: Int,
                         option: Setting = .quality) throws(FileChoiceError) -> CompressionSettings {
        guard let codec = format.codecName else {
            throw FileChoiceError("\(setting: option) is for lossy files (mp3, ogg, opus), not \(format.name)")
        }
        switch self {
        case let .quality(q):
            // LAME takes VBR qualities below 10 only (libsndfile passes 10 × the level).
            return CompressionSettings(compressionLevel: codec == "mp3" ? min(1 - q, 0.9999) : 1 - q, bitrateMode: nil)
        case let .bitRate(k):
            switch codec {
            case "mp3":
                let rates = Self.mp3BitRates(sampleRate: sampleRate)
                guard rates.contains(k) else {
                    throw FileChoiceError("\(setting: option) \(k)k: MP3 at \(sampleRate) Hz takes \(rates.map { String($0) }.joined(separator: ", ")) kbit/s")
                }
                // libsndfile's bit rate is (int)(highest − level × (highest − lowest)); half a
                // kbit/s of margin keeps the truncation from landing one below.
                let (low, high) = (Double(rates.first!), Double(rates.last!))
                let level = max(0, (high - Double(k) - 0.5) / (high - low))
                return CompressionSettings(compressionLevel: level, bitrateMode: Int32(SF_BITRATE_MODE_CONSTANT))
            case "opus":
                let perChannel = Double(k) * 1000 / Double(channels)
                guard (6000...256_000).contains(perChannel) else {
                    throw FileChoiceError("\(setting: option) \(k)k: Opus takes 6 to 256 kbit/s per channel (\(6 * channels) to \(256 * channels)k for \(channels))")
                }
                // libsndfile's target is (int)((1 − level) × 250000 + 6000) per channel.
                return CompressionSettings(compressionLevel: min(1, max(0, 1 - (perChannel - 6000 + 0.5) / 250_000)), bitrateMode: nil)
            default:
                throw FileChoiceError("\(setting: option) \(k)k: Ogg Vorbis takes a quality from 0 to 1, not a bit rate (libsndfile sets none)")
            }
        }
    }
}

/// libsndfile's settings for a lossy codec, made from `CompressionQuality`.
public struct CompressionSettings: Sendable, Equatable {
    /// `SFC_SET_COMPRESSION_LEVEL`: 0 (best) to 1 (smallest).
    public let compressionLevel: Double
    /// `SFC_SET_BITRATE_MODE` (`SF_BITRATE_MODE_CONSTANT`), set after the level; nil to keep
    /// the codec's own (variable).
    public let bitrateMode: Int32?
}
