import JackwaveSoundFiles

/// What the MIDI side of a run records and listens to, from the validated options.
public struct MidiRecordingSettings: Sendable, Equatable {
    /// One name per recorded MIDI input (`midi_1 …`): the port it is connected to, which
    /// names its track. Empty when only the control input listens (`--mmc` alone).
    public var trackNames: [String]
    /// The control input's index in the MIDI ring (after the recorded ones), nil without `--mmc`.
    public var controlInput: Int?
    /// What on the control input drops a marker (`--midi-marker`), nil for nothing.
    public var marker: MidiMarkerTrigger?
    /// The server's rate and the files' (`--rate`): ticks count the files' frames.
    public var inputRate: Int
    public var fileRate: Int
    /// `--force`: replace a `.mid` in the way; otherwise one is never overwritten.
    public var policy: CreatedFile.Policy
    /// How far back a file may begin from where the writer is (`--pre-roll`, `--overlap`),
    /// in frames: events are kept that long for the files that start in the past.
    public var lookBackFrames: Int64

    public init(trackNames: [String], controlInput: Int?, marker: MidiMarkerTrigger?, inputRate: Int, fileRate: Int,
                policy: CreatedFile.Policy, lookBackFrames: Int64) {
        self.trackNames = trackNames
        self.controlInput = controlInput
        self.marker = marker
        self.inputRate = inputRate
        self.fileRate = fileRate
        self.policy = policy
        self.lookBackFrames = lookBackFrames
    }

    /// The `.mid` beside a sound file: its name with the extension changed (`take-003-002.mid`).
    public static func midiPath(beside path: String) -> String {
        let directory = FileNames.directory(path)
        let stem = FileNames.stemAndExtension(FileNames.lastComponent(path)).stem
        let prefix = directory.isEmpty ? "" : directory.hasSuffix("/") ? directory : directory + "/"
        return prefix + stem + ".mid"
    }
}

/// What drops a marker when it comes on the control input (`--midi-marker NOTE|ccN`).
public enum MidiMarkerTrigger: Sendable, Equatable {
    /// A note-on (velocity above 0) of this key, any channel.
    case note(UInt8)
    /// This controller going to 64 or more (a pedal or button pressed), any channel.
    case controller(UInt8)

    func matches(_ message: MidiMessage) -> Bool {
        guard let (kind, _) = message.channelStatus, message.bytes.count == 3 else { return false }
        switch self {
        case let .note(key): return kind == 0x90 && message.bytes[1] == key && message.bytes[2] > 0
        case let .controller(number): return kind == 0xB0 && message.bytes[1] == number && message.bytes[2] >= 64
        }
    }
}
