import CSndfile

/// A container format jackwave writes, chosen by `--format NAME` or the file's extension.
public struct SoundFormat: Sendable, Equatable {
    /// The name `--format` takes and `--formats` lists.
    public let name: String
    /// libsndfile major format (`SF_FORMAT_WAV`, ...).
    public let major: Int32
    /// Lower-case extensions that fit it; the first one selects it by extension.
    public let extensions: [String]
    /// Depths it stores, or empty for a lossy codec.
    public let depths: [SampleDepth]
    /// The codec subtype of a lossy format (Vorbis, Opus, MPEG Layer III), nil for PCM.
    let codec: Int32?
    /// RF64 written with libsndfile's auto-downgrade: a plain RIFF/WAVE file unless it ends
    /// past 4 GB (libsndfile decides on the file's real length at each header update).
    public let downgradesToWAV: Bool
    /// Largest file its 32-bit chunk sizes can describe, nil when unbounded.
    public let maximumBytes: Int64?
    /// The only sample rates the codec takes (Opus), nil for any.
    public let sampleRates: [Int]?
    /// Whether jackwave stores a Broadcast Wave `bext` chunk (start time) in it.
    public let carriesBroadcastInfo: Bool
    /// Whether the writer refreshes the header while recording (crash safety). Not Ogg: its
    /// pages need no header, and libsndfile 1.2.0's `SFC_UPDATE_HEADER_NOW` corrupts Ogg Vorbis.
    /// Not MP3: its length is in LAME's Xing frame, filled in at close.
    public var refreshesHeader: Bool { major != Int32(SF_FORMAT_OGG) && major != Int32(SF_FORMAT_MPEG) }
    /// One line for `--formats`.
    public let summary: String

    /// RIFF's 32-bit sizes, less 1 MB of room for the header: a file stops short of 4 GB.
    static let riffLimit: Int64 = 0xFFFF_FFFF - (1 << 20)
    static let pcm: [SampleDepth] = [.int16, .int24, .int32, .float]

    /// Every format jackwave knows, in `--formats` order. `.wav` is RF64 with auto-downgrade
    /// (libsndfile's RF64 writer always uses the WAVE_FORMAT_EXTENSIBLE header, so any
    /// channel count is described properly); `wavex` is classic RIFF, which ends at 4 GB.
    public static let all: [SoundFormat] = [
        SoundFormat(name: "wav", major: Int32(SF_FORMAT_RF64), extensions: ["wav"], depths: pcm, codec: nil,
                    downgradesToWAV: true, maximumBytes: nil, sampleRates: nil, carriesBroadcastInfo: true,
                    summary: "WAV (WAVE_FORMAT_EXTENSIBLE), becomes RF64 past 4 GB; bext start time"),
        SoundFormat(name: "wavex", major: Int32(SF_FORMAT_WAVEX), extensions: ["wav"], depths: pcm, codec: nil,
                    downgradesToWAV: false, maximumBytes: riffLimit, sampleRates: nil, carriesBroadcastInfo: true,
                    summary: "WAV (WAVE_FORMAT_EXTENSIBLE), classic RIFF: stops at 4 GB; bext start time"),
        SoundFormat(name: "rf64", major: Int32(SF_FORMAT_RF64), extensions: ["rf64", "wav"], depths: pcm, codec: nil,
                    downgradesToWAV: false, maximumBytes: nil, sampleRates: nil, carriesBroadcastInfo: true,
                    summary: "RF64 (EBU Tech 3306) whatever the size; bext start time"),
        SoundFormat(name: "w64", major: Int32(SF_FORMAT_W64), extensions: ["w64"], depths: pcm, codec: nil,
                    downgradesToWAV: false, maximumBytes: nil, sampleRates: nil, carriesBroadcastInfo: false,
                    summary: "Sony Wave64"),
        SoundFormat(name: "flac", major: Int32(SF_FORMAT_FLAC), extensions: ["flac"], depths: [.int16, .int24], codec: nil,
                    downgradesToWAV: false, maximumBytes: nil, sampleRates: nil, carriesBroadcastInfo: false,
                    summary: "FLAC, lossless"),
        SoundFormat(name: "ogg", major: Int32(SF_FORMAT_OGG), extensions: ["ogg", "oga"], depths: [], codec: Int32(SF_FORMAT_VORBIS),
                    downgradesToWAV: false, maximumBytes: nil, sampleRates: nil, carriesBroadcastInfo: false,
                    summary: "Ogg Vorbis, lossy"),
        SoundFormat(name: "opus", major: Int32(SF_FORMAT_OGG), extensions: ["opus"], depths: [], codec: Int32(SF_FORMAT_OPUS),
                    downgradesToWAV: false, maximumBytes: nil, sampleRates: [8000, 12000, 16000, 24000, 48000],
                    carriesBroadcastInfo: false, summary: "Ogg Opus, lossy; 8, 12, 16, 24 or 48 kHz only"),
        SoundFormat(name: "mp3", major: Int32(SF_FORMAT_MPEG), extensions: ["mp3"], depths: [], codec: Int32(SF_FORMAT_MPEG_LAYER_III),
                    downgradesToWAV: false, maximumBytes: nil, sampleRates: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000],
                    carriesBroadcastInfo: false, summary: "MP3 (MPEG Layer III, LAME), lossy; 1 or 2 channels, 8 to 48 kHz"),
        SoundFormat(name: "caf", major: Int32(SF_FORMAT_CAF), extensions: ["caf"], depths: pcm, codec: nil,
                    downgradesToWAV: false, maximumBytes: nil, sampleRates: nil, carriesBroadcastInfo: false,
                    summary: "Apple Core Audio Format"),
        SoundFormat(name: "aiff", major: Int32(SF_FORMAT_AIFF), extensions: ["aiff", "aif"], depths: pcm, codec: nil,
                    downgradesToWAV: false, maximumBytes: riffLimit, sampleRates: nil, carriesBroadcastInfo: false,
                    summary: "AIFF (AIFF-C for float); stops at 4 GB"),
    ]

    /// The format `--format NAME` means, or nil.
    public static func named(_ name: String) -> SoundFormat? {
        all.first { $0.name == name.lowercased() }
    }

    /// The format for a path's extension, or nil when jackwave does not write it.
    public static func forPath(_ path: String) -> SoundFormat? {
        let ext = FileNames.lowercasedExtension(path)
        return ext.isEmpty ? nil : all.first { $0.extensions.contains(ext) }
    }

    /// Whether this is a lossy codec (no `--bits`).
    public var isLossy: Bool { codec != nil }

    /// The lossy codec's name, as `--formats` lists it (`vorbis`, `opus`, `mp3`); nil for PCM.
    public var codecName: String? {
        switch codec {
        case Int32(SF_FORMAT_VORBIS): "vorbis"
        case Int32(SF_FORMAT_OPUS): "opus"
        case Int32(SF_FORMAT_MPEG_LAYER_III): "mp3"
        default: nil
        }
    }

    /// The most channels the codec takes, nil for no limit of its own (MP3: stereo at most).
    public var maximumChannels: Int? { major == Int32(SF_FORMAT_MPEG) ? 2 : nil }

    /// The depth a file gets: the one asked for, else float where the format holds it, else
    /// 24-bit (FLAC); nil for a lossy codec.
    public func resolvedDepth(_ depth: SampleDepth?) -> SampleDepth? {
        if isLossy { return nil }
        return depth ?? (depths.contains(.float) ? .float : .int24)
    }

    /// The libsndfile format word for a depth; nil when this format cannot hold it.
    /// `nil` depth means the default (see `resolvedDepth`).
    public func formatWord(depth: SampleDepth?) -> Int32? {
        if let codec { return depth == nil ? major | codec : nil }
        guard let chosen = resolvedDepth(depth), depths.contains(chosen) else { return nil }
        return major | chosen.subtype
    }
}
