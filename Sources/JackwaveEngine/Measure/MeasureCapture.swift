/// What a measurement's run brought back: every input's capture, what JACK declares for each
/// path's latency, and what disturbed it.
public struct MeasureCapture: Sendable {
    /// One array per input, as long as the programme.
    public let inputs: [[Float]]
    /// Per channel: jackwave's input port's capture latency and its output port's playback
    /// latency, as JACK declares them.
    public let declared: [(capture: DeclaredLatency, playback: DeclaredLatency)]
    /// Xruns the server reported while the programme played (the kept attempt's).
    public let xruns: Int
    /// Frames the server ran without jackwave during the kept attempt (0 unless no attempt
    /// was free of them).
    public let skippedFrames: Int
    /// What was still wrong with the kept attempt (skipped cycles, a lost cycle), if anything:
    /// the figures are then unreliable.
    public let disturbance: String?
    /// Attempts made: more than 1 when an earlier one was disturbed.
    public let attempts: Int
    public let sampleRate: Int
    public let period: Int
    /// The server's frame time (`jack_last_frame_time`) of the cycle that played the
    /// programme's first frame: where the measurement lies on the server's clock.
    public var startFrameTime: Int?

    public init(inputs: [[Float]], declared: [(capture: DeclaredLatency, playback: DeclaredLatency)], xruns: Int,
                skippedFrames: Int, disturbance: String?, attempts: Int, sampleRate: Int, period: Int) {
        self.inputs = inputs
        self.declared = declared
        self.xruns = xruns
        self.skippedFrames = skippedFrames
        self.disturbance = disturbance
        self.attempts = attempts
        self.sampleRate = sampleRate
        self.period = period
    }
}

/// Why a measurement's run failed: one line, exit 1.
public struct MeasureRunError: Error, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
