import JackwaveLevelStream
import JackwaveSoundFiles

/// Everything the main command (`--record`, `--tone`, or monitoring) was asked to do,
/// parsed and range-checked but not yet checked against the server or the disk.
public struct RunOptions: Equatable, Sendable {
    // Recording
    public var recordPath: String?
    /// Input ports; nil means not given (2, or the number of `--port` matches).
    public var channels: Int?
    public var portPatterns: [String] = []
    public var manual = false
    public var duration: Double?
    public var depth: SampleDepth?
    public var force = false
    public var bufferSeconds: Double = 10
    /// The file's sample rate (`--rate`), nil for the server's.
    public var fileRate: Int?
    /// The container (`--format`), nil to choose by the path's extension.
    public var format: SoundFormat?
    /// TPDF dither when rounding to 16 or 24 bits (`--no-dither` clears it).
    public var dither = true
    /// A new file every this many seconds (`--split`), nil for one file.
    public var splitSeconds: Double?
    /// Print the wall-clock time of the first frame at the start (`--print-start`).
    public var printStart = false
    /// List the formats this machine writes and exit (`--formats`).
    public var listFormats = false

    // JACK
    public var clientName = "jackwave"
    public var server: String?

    // Tone
    public var toneFrequency: Double?
    public var outputs = 2
    public var toPatterns: [String] = []
    /// Peak amplitude, linear: 0.1 is -20 dBFS.
    public var volume: Float = 0.1
    public var fadeMilliseconds: Double = 20

    // Levels and meter
    public var levelsPath: String?
    public var levelsFormat: LevelStreamFormat?
    public var levelIntervalMilliseconds: Double?
    /// nil: show the meter when stderr is a terminal.
    public var meter: Bool?
    /// Live EBU R 128 loudness in the meter and the level stream (`--loudness`).
    public var loudness = false
    /// The meter's target loudness mark, LUFS (`--target`).
    public var targetLoudness: Double = -23

    // Afterwards
    public var plotPath: String?

    public init() {}

    /// Whether this run plays a tone.
    public var playsTone: Bool { toneFrequency != nil }
    /// Whether jackwave registers input ports: always, except for a bare tone (which then
    /// connects nothing to the capture ports it does not need).
    public var wantsInputs: Bool {
        records || !playsTone || channels != nil || !portPatterns.isEmpty || levelsPath != nil || meter == true || loudness
    }
    /// Whether this run records a file.
    public var records: Bool { recordPath != nil }
}
