/// What a run does, beyond its ports and files: how long, which tone, how much buffer.
public struct RunSettings: Sendable {
    /// Stop after this many frames (`--duration`), or nil to run until stopped.
    public var frameLimit: Int64?
    /// The tone to play on the outputs, if any.
    public var tone: ToneSettings?
    /// The audio ring between the callback and the writer, in seconds (`--buffer`).
    public var bufferSeconds: Double
    /// The summary names the wall-clock time of the first frame (`--print-start`).
    public var printStart: Bool
    /// A test hook: the writer sleeps this long before each pass, to fill the ring for real.
    public var writerStallMicroseconds: UInt32
    /// Armed: how takes start and end (`--trigger`, `--transport`); nil records throughout.
    public var takes: TakeSettings?
    /// `--reconnect`: a lost server ends this connection quietly (no error line, no
    /// summary); the caller waits for a server and starts the next.
    public var reconnects = false
    /// `--stream`: the live stream beside the recording, nil for none.
    public var stream: StreamSettings?

    public init(frameLimit: Int64?, tone: ToneSettings?, bufferSeconds: Double, printStart: Bool,
                writerStallMicroseconds: UInt32 = 0) {
        self.frameLimit = frameLimit
        self.tone = tone
        self.bufferSeconds = bufferSeconds
        self.printStart = printStart
        self.writerStallMicroseconds = writerStallMicroseconds
    }
}
