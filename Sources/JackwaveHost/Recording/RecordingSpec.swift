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
    /// Armed (`--trigger`, `--transport`): each take its own numbered file, opened when the
    /// take starts.
    public var takes = false
    /// The number of the first file (`--reconnect` goes on into the next number).
    public var firstPiece = 1
    /// Numbered files even without `--split` (`--reconnect`: a restart starts the next one).
    public var alwaysNumbered = false
    /// `--force`: a plain file at a piece's path is overwritten (`CreatedFile.Policy.replace`)
    /// instead of refused. Never for takes, which are numbered past the files that exist.
    public var replacesFiles = false

    /// How each file is created (`CreatedFile`): never through a link, and over an existing
    /// plain file only with `--force`.
    public var creationPolicy: CreatedFile.Policy { replacesFiles && !takes ? .replace : .new }

    public init(path: String, format: SoundFormat, depth: SampleDepth?, channels: Int, inputRate: Int,
                fileRate: Int, dither: Bool, splitFrames: Int64?) {
        self.path = path
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

    /// The path of piece `number` (from 1), or the path itself when not split.
    public func path(ofPiece number: Int) -> String {
        splitFrames == nil && !takes && !alwaysNumbered ? path : SplitNaming.path(path, piece: number)
    }

    /// Most frames one file may hold (a 4 GB container), nil when unbounded.
    public var maximumFramesPerFile: Int64? {
        guard let limit = format.maximumBytes, let depth else { return nil }
        return limit / Int64(channels * depth.bytes)
    }
}
