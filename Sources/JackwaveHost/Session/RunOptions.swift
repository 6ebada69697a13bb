import JackwaveAnalysis
import JackwaveLevelStream
import JackwaveRecording
import JackwaveSoundFiles
import JackwaveStreaming
import JackwaveUnattended

/// Everything the main command (`--record`, `--tone`, or monitoring) was asked to do: the
/// plain value the command line is parsed into (range-checked, not yet checked against the
/// server or the disk), and all that `JackwaveHost` builds a run from.
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

    // Takes (armed recording)
    /// Seconds kept before a take's start (`--pre-roll`), 0 for none.
    public var preRollSeconds: Double = 0
    /// The peak that starts a take (`--trigger`, linear), nil when not triggered by level.
    public var triggerLevel: Float?
    /// Record only while the JACK transport rolls (`--transport`).
    public var followTransport = false
    /// Seconds a take goes on after the signal (or the transport) stopped (`--stop-after`);
    /// nil for the default (2 s with `--trigger`, 0 with `--transport`).
    public var stopAfterSeconds: Double?
    /// The level a take must stay below to end (`--stop-level`, linear); nil: 6 dB under the trigger.
    public var stopLevel: Float?
    /// Takes after which jackwave ends (`--takes`), nil for no end.
    public var maximumTakes: Int?

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

    // Unattended
    /// `--events FILE|-`: the JSON Lines event stream.
    public var eventsPath: String?
    /// `--on-close CMD`: run after each file is finalized.
    public var onClose: String?
    /// `--on-close-timeout SEC`: a hook running longer is stopped (its process group), nil for no bound.
    public var onCloseTimeout: Double?
    /// `--reconnect`: survive the server stopping or restarting.
    public var reconnect = false
    /// `--osc PORT|ADDR:PORT`: remote control over UDP, where it listens (PORT: loopback only).
    public var osc: OscBinding?
    /// `--osc-allow CIDR` (repeatable): senders admitted besides this machine.
    public var oscAllow: [OscNetwork] = []
    /// The UDP port `--osc` listens on.
    public var oscPort: Int? { osc?.port }
    /// Whether the files are numbered from the first (`take-001.wav`): a take that may be
    /// cut or continued later (`--split`, `--reconnect`, `--osc`'s split). On the wall clock
    /// (`--split-every`) they are cut too, and named by their time instead.
    public var numbersFiles: Bool { splitSeconds != nil || reconnect || oscPort != nil || splitEvery != nil }

    // Station logger (issue 25)
    /// A lossy archive's quality or bit rate (`--quality`), nil for the codec's default.
    public var quality: CompressionQuality?
    /// `--stream icecast://…`: the live stream beside the recording.
    public var stream: StreamTarget?
    /// `--stream-password-file FILE`: the stream's password (else `JACKWAVE_STREAM_PASSWORD`).
    public var streamPasswordFile: String?
    /// `--stream-ca FILE`: the authorities trusted for an `icecasts://` server's certificate.
    public var streamCertificateAuthorities: String?
    /// The stream's quality or bit rate (`--stream-quality`), nil for the codec's default.
    public var streamQuality: CompressionQuality?
    /// `--split-every 1h`: pieces cut on the wall clock.
    public var splitEvery: ClockPeriod?
    /// `--name-pattern '%Y-%m-%d/%H%M.flac'`: the pieces' names, under `--record`'s folder.
    public var namePattern: NamePattern?
    /// `--utc`: the wall clock's pieces and names in UTC rather than local time.
    public var utc = false
    /// `--overlap SECONDS`: each piece also holds SECONDS of its neighbours.
    public var overlapSeconds: Double?
    /// `--keep 30d` / `--keep-space 50G`: retention of jackwave's own files.
    public var retention = RetentionLimits()
    /// `--silence -50dB:30s` and `--clip 3`: the dead-air and clipping alarms.
    public var alarms = AlarmSettings()
    /// `--on-event CMD`: run with each alarm's or incident's JSON on stdin.
    public var onEvent: String?

    public init() {}

    /// Whether this run plays a tone.
    public var playsTone: Bool { toneFrequency != nil }
    /// Whether jackwave registers input ports: always, except for a bare tone (which then
    /// connects nothing to the capture ports it does not need).
    public var wantsInputs: Bool {
        records || !playsTone || channels != nil || !portPatterns.isEmpty || levelsPath != nil || meter == true || loudness
            || stream != nil || alarms.isOn
    }
    /// Whether the recording is armed: takes instead of one recording from start to end.
    public var armed: Bool { triggerLevel != nil || followTransport }
    /// Whether this run records a file.
    public var records: Bool { recordPath != nil }
}
