import JackwaveSoundFiles

/// Everything about a recording's files, decided before the run starts: where, in what
/// format, at what rate, rounded how, split how.
public struct RecordingSpec: Sendable, Equatable {
    /// The path as given (`--record take.wav`); split pieces are named after it.
    public var path: String
    public var format: SoundFormat
    /// The file's depth (resolved: nil only for a lossy codec).
    public var depth: SampleDepth?
    public var channels: Int
    /// The JACK server's rate: what the ring delivers.
    public var inputRate: Int
    /// The file's rate (`--rate`, else the server's).
    public var fileRate: Int
    /// TPDF dither when rounding to 16 or 24 bits (`--no-dither` turns it off).
    public var dither: Bool
    /// Frames per piece at the file's rate (`--split`), nil for one file.
    public var splitFrames: Int64?
    /// How the files are named: one file, numbered pieces, takes, or takes in pieces.
    public var naming: FileNaming
    /// A lossy codec's quality or bit rate (`--quality`), nil for the codec's default.
    public var compression: CompressionSettings?
    /// `--split-every`: pieces cut and named on the wall clock; nil otherwise.
    public var clock: ClockPlan?
    /// `--force`: a plain file at the path is overwritten (`CreatedFile.Policy.replace`)
    /// instead of refused. Only for a single file: numbered files go on after those that exist.
    public var replacesFiles = false
    /// `--project`, `--scene`, `--take`, `--tape`, `--note`: into every file's `iXML` and
    /// `bext` description.
    public var production = ProductionInfo()
    /// What each channel records (its source port), for the `iXML` track list; empty for
    /// the inputs' own names.
    public var trackNames: [String] = []

    /// How each file is created (`CreatedFile`): never through a link, and over an existing
    /// plain file only with `--force`, for a single file.
    public var creationPolicy: CreatedFile.Policy { replacesFiles && !naming.isNumbered ? .replace : .new }

    public init(path: String, format: SoundFormat, depth: SampleDepth?, channels: Int, inputRate: Int,
                fileRate: Int, dither: Bool, splitFrames: Int64?, naming: FileNaming? = nil) {
        self.path = path
        self.naming = naming ?? FileNaming(base: path, armed: false, cut: splitFrames != nil)
        self.format = format
        self.depth = format.resolvedDepth(depth)
        self.channels = channels
        self.inputRate = inputRate
        self.fileRate = fileRate
        self.dither = dither
        self.splitFrames = splitFrames
    }

    /// libsndfile's format word (the format was checked to hold the depth when parsing).
    public var formatWord: Int32 { format.formatWord(depth: depth) ?? format.major }

    /// Whether the writer converts the rate.
    public var resamples: Bool { inputRate != fileRate }

    /// The bits samples are rounded to (16 or 24), nil when written as they come.
    public var quantizedBits: Int? { depth?.quantizedBits }

    /// Whether files are taken one per armed take.
    public var takes: Bool { naming.scheme == .takes || naming.scheme == .takePieces }

    /// A file frame at the file's rate as a frame at the server's rate (exact without `--rate`).
    public func inputFrames(fromFileFrames frames: Int64) -> Int64 {
        resamples ? (frames * Int64(inputRate) + Int64(fileRate / 2)) / Int64(fileRate) : frames
    }

    /// A frame at the server's rate as a frame at the file's rate (exact without `--rate`).
    public func fileFrames(fromInputFrames frames: Int64) -> Int64 {
        resamples ? (frames * Int64(fileRate) + Int64(inputRate / 2)) / Int64(inputRate) : frames
    }

    /// Most frames one file may hold (a 4 GB container), nil when unbounded.
    public var maximumFramesPerFile: Int64? {
        guard let limit = format.maximumBytes, let depth else { return nil }
        return limit / Int64(channels * depth.bytes)
    }
}
