import JackwaveAnalysis
import JackwaveLevelStream
import JackwaveMIDI
import JackwaveRecording
import JackwaveSoundFiles
import JackwaveStreaming
import JackwaveUnattended

/// Everything the main command (`--record`, `--tone`, or monitoring) was asked to do: the
/// plain value the command line is parsed into (range-checked, not yet checked against the
/// server or the disk), in sections by subject, and all that `JackwaveHost` builds a run from.
///
/// Each section is what one part of a run is built from; the few answers that need several
/// sections (`numbersFiles`, `wantsInputs`) are asked of the whole.
public struct RunOptions: Equatable, Sendable {
    public var jack = Jack()
    public var recording = Recording()
    public var takes = Takes()
    public var tone = Tone()
    public var levels = Levels()
    public var unattended = Unattended()
    public var remote = Remote()
    public var station = Station()
    public var managed = Managed()
    public var midi = Midi()
    public var timecode = Timecode()

    public init() {}

    /// Whether the files are numbered from the first (`take-001.wav`): a take that may be
    /// cut or continued later (by size, a reconnection or a remote split). Cut on the wall
    /// clock, they are named by their time instead.
    public var numbersFiles: Bool {
        recording.splitSeconds != nil || unattended.reconnect || remote.osc != nil || station.splitEvery != nil
            || managed.folder != nil
    }
    /// Whether this run plays a tone.
    public var playsTone: Bool { tone.frequency != nil }
    /// Whether jackwave registers input ports: always, except for a bare tone (which then
    /// connects nothing to the capture ports it does not need).
    public var wantsInputs: Bool {
        guard !recordsMidiOnly else { return jack.channels != nil }
        return records || !playsTone || jack.channels != nil || !jack.portPatterns.isEmpty || levels.path != nil
            || levels.meter == true || levels.loudness || station.stream != nil || station.alarms.isOn
    }
    /// Whether the recording is armed: takes instead of one recording from start to end.
    public var armed: Bool { takes.triggerLevel != nil || takes.followTransport || midi.controlPort != nil }
    /// Whether this run records a file.
    public var records: Bool { recording.path != nil }
    /// Whether the file recorded is a Standard MIDI File alone (`--record take.mid`).
    public var recordsMidiOnly: Bool { recording.path.map { FileNames.lowercasedExtension($0) == "mid" } ?? false }
}

extension RunOptions {
    /// The JACK client and what its inputs are connected to.
    public struct Jack: Equatable, Sendable {
        public var clientName = "jackwave"
        /// The server's name, nil for the default (`$JACK_DEFAULT_SERVER`).
        public var server: String?
        /// Input ports; nil means not given (2, or the number of port matches).
        public var channels: Int?
        /// What the inputs are connected to, in order (names or globs).
        public var portPatterns: [String] = []
        /// Connect nothing: the user patches.
        public var manual = false
    }

    /// The file recorded, and how.
    public struct Recording: Equatable, Sendable {
        public var path: String?
        /// Seconds to record, nil until stopped.
        public var duration: Double?
        public var depth: SampleDepth?
        /// Replace files in the way.
        public var force = false
        /// Seconds of audio the ring between the callback and the writer holds.
        public var bufferSeconds: Double = 10
        /// The file's sample rate, nil for the server's.
        public var fileRate: Int?
        /// The container, nil to choose by the path's extension.
        public var format: SoundFormat?
        /// TPDF dither when rounding to 16 or 24 bits.
        public var dither = true
        /// A new file every this many seconds, nil for one file.
        public var splitSeconds: Double?
        /// A lossy file's quality or bit rate, nil for the codec's default.
        public var quality: CompressionQuality?
        /// Say the wall-clock time of the first frame at the start.
        public var printStart = false
        /// List the formats this machine writes and exit.
        public var listFormats = false
        /// A picture of each file, drawn when it closes.
        public var plotPath: String?
    }

    /// Timecode (`--ltc`) and what the files say of the production (`--scene` …).
    public struct Timecode: Equatable, Sendable {
        /// The port playing LTC, nil for the wall clock.
        public var ltcPort: String?
        public var production = ProductionInfo()
    }

    /// Armed recording: takes started by level or by the transport.
    public struct Takes: Equatable, Sendable {
        /// Seconds kept before a take's start, 0 for none.
        public var preRollSeconds: Double = 0
        /// The peak that starts a take (linear), nil when not triggered by level.
        public var triggerLevel: Float?
        /// Record only while the JACK transport rolls.
        public var followTransport = false
        /// Seconds a take goes on after the signal (or the transport) stopped; nil for the
        /// default (2 s when triggered by level, 0 by the transport).
        public var stopAfterSeconds: Double?
        /// The level a take must stay below to end (linear); nil: 6 dB under the trigger.
        public var stopLevel: Float?
        /// Takes after which jackwave ends, nil for no end.
        public var maximumTakes: Int?
    }

    /// The tone played on jackwave's outputs.
    public struct Tone: Equatable, Sendable {
        /// Hz, nil for no tone.
        public var frequency: Double?
        public var outputs = 2
        /// Where the outputs go, in order (names or globs).
        public var toPatterns: [String] = []
        /// Peak amplitude, linear: 0.1 is -20 dBFS.
        public var volume: Float = 0.1
        public var fadeMilliseconds: Double = 20
    }

    /// What a run says of its levels: the level stream, the meter, live loudness.
    public struct Levels: Equatable, Sendable {
        /// The level stream's file, `-` for stdout.
        public var path: String?
        public var format: LevelStreamFormat?
        public var intervalMilliseconds: Double?
        /// nil: show the meter when stderr is a terminal.
        public var meter: Bool?
        /// Live EBU R 128 loudness in the meter and the level stream.
        public var loudness = false
        /// The meter's target loudness mark, LUFS.
        public var targetLoudness: Double = -23
    }

    /// What a run does unattended: its events, hooks, and surviving the server.
    public struct Unattended: Equatable, Sendable {
        /// The JSON Lines event stream's file, `-` for stdout.
        public var eventsPath: String?
        /// Run after each file is finalized.
        public var onClose: String?
        /// A close hook running longer is stopped (its process group), nil for no bound.
        public var onCloseTimeout: Double?
        /// Run with each alarm's or incident's JSON on stdin.
        public var onEvent: String?
        /// Survive the server stopping or restarting.
        public var reconnect = false
    }

    /// A run under a session manager (NSM): the folder the session gave this client, which
    /// every file the run writes must stay inside. Its files are numbered, so that each open
    /// of the session records on into the next one.
    public struct Managed: Equatable, Sendable {
        /// The client's folder (absolute), nil outside a session.
        public var folder: String?
    }

    /// MIDI beside the audio.
    public struct Midi: Equatable, Sendable {
        /// MIDI inputs `midi_1 … midi_N` (`--midi`), 0 for none.
        public var inputs = 0
        /// What they are connected to, in order (names or globs); none: the physical MIDI
        /// capture ports.
        public var portPatterns: [String] = []
        /// The source of MIDI Machine Control (`--mmc`): a control input connected to it
        /// starts and ends takes. Nil for none.
        public var controlPort: String?
        /// What on the control input drops a marker (`--midi-marker`).
        public var marker: MidiMarkerTrigger?
    }

    /// Remote control over OSC.
    public struct Remote: Equatable, Sendable {
        /// Where it listens, nil for no remote control (a port alone: loopback only).
        public var osc: OscBinding?
        /// Senders admitted besides this machine.
        public var allowed: [OscNetwork] = []
        /// The UDP port it listens on.
        public var port: Int? { osc?.port }
    }

    /// The station logger: pieces on the wall clock, their names, retention, the live stream
    /// and the alarms.
    public struct Station: Equatable, Sendable {
        /// The live stream beside the recording.
        public var stream: StreamTarget?
        /// The file holding the stream's password (else the environment's).
        public var streamPasswordFile: String?
        /// The authorities trusted for an `icecasts://` server's certificate.
        public var streamCertificateAuthorities: String?
        /// The stream's quality or bit rate, nil for the codec's default.
        public var streamQuality: CompressionQuality?
        /// Pieces cut on the wall clock.
        public var splitEvery: ClockPeriod?
        /// The pieces' names, under the recording's folder.
        public var namePattern: NamePattern?
        /// The wall clock's pieces and names in UTC rather than local time.
        public var utc = false
        /// Each piece also holds this many seconds of its neighbours.
        public var overlapSeconds: Double?
        /// Retention of jackwave's own files.
        public var retention = RetentionLimits()
        /// The dead-air and clipping alarms.
        public var alarms = AlarmSettings()
    }
}
