/// What the live status line shows, gathered by the session on each main-loop tick.
public struct StatusSnapshot: Equatable, Sendable {
    public var elapsedSeconds: Double
    /// The recording's path and bytes on disk so far, when recording.
    public var recordPath: String?
    public var fileBytes: Int64?
    /// Audio ring fill, 0…1, when recording.
    public var ringFill: Double?
    public var xruns: Int
    public var droppedFrames: Int
    /// The tone's current frequency, peak amplitude (linear) and pause state, when playing.
    public var toneFrequency: Double?
    public var toneAmplitude: Float?
    public var tonePaused: Bool
    /// Armed: "armed", "recording take 3", "take 3 stopping in 1.2 s"; nil when not armed.
    public var takeStatus: String?
    /// `--silence`, `--clip`: "dead air 35.2 s", "clipping 12/s"; nil when neither is under way.
    public var alarmStatus: String?
    /// `--midi`: each MIDI input's events so far, and the losses ("MIDI midi_1 12 lost 2").
    public var midiStatus: String?
    /// `--ltc`: the incoming timecode and its state ("TC 01:00:03:12 locked").
    public var timecodeStatus: String?

    public init(elapsedSeconds: Double, recordPath: String?, fileBytes: Int64?, ringFill: Double?, xruns: Int,
                droppedFrames: Int, toneFrequency: Double?, toneAmplitude: Float?, tonePaused: Bool) {
        self.elapsedSeconds = elapsedSeconds
        self.recordPath = recordPath
        self.fileBytes = fileBytes
        self.ringFill = ringFill
        self.xruns = xruns
        self.droppedFrames = droppedFrames
        self.toneFrequency = toneFrequency
        self.toneAmplitude = toneAmplitude
        self.tonePaused = tonePaused
    }
}
