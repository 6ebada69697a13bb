/// What the live status line shows, gathered by the session on each main-loop tick.
struct StatusSnapshot: Equatable {
    var elapsedSeconds: Double
    /// The recording's path and bytes on disk so far, when recording.
    var recordPath: String?
    var fileBytes: Int64?
    /// Audio ring fill, 0…1, when recording.
    var ringFill: Double?
    var xruns: Int
    var droppedFrames: Int
    /// The tone's current frequency, peak amplitude (linear) and pause state, when playing.
    var toneFrequency: Double?
    var toneAmplitude: Float?
    var tonePaused: Bool
}
