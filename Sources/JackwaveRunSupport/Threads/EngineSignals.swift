import Synchronization

/// Cross-thread state of a run: flags and counters shared by the realtime callback, JACK's
/// notification thread, the writer thread and the main thread.
///
/// Every field is an independent value: no field publishes other memory, so `.relaxed`
/// is enough, except `serverGone`, which publishes the shutdown reason, and `started`
/// (`.releasing` / `.acquiring`: it publishes nothing the callback reads today, but marks
/// the one hand-over from setup to the run, and costs nothing on x86 or ARM loads).
public final class EngineSignals: Sendable {
    /// Set by the main thread once ports are connected; the callback then starts counting
    /// frames, recording and playing. Before it, outputs are silent.
    public let started = Atomic<Bool>(false)
    /// Set by the callback when the frame limit (`--duration`) has been reached and, with a
    /// tone, its fade-out has ended.
    public let finished = Atomic<Bool>(false)
    /// Cycles the server has run the callback for, from activation: the main thread's sign
    /// that the server is still running us (see `ServerWatch`).
    public let cycles = Atomic<Int>(0)
    /// Frames processed since `started`: the stream position.
    public let streamFrames = Atomic<Int>(0)
    /// Frames that did not fit in the audio ring (replaced by silence in the file).
    public let droppedFrames = Atomic<Int>(0)
    /// Frames the server's clock ran between two of our cycles: audio the server never gave
    /// us (PipeWire skips a late client instead of waiting for it).
    public let skippedFrames = Atomic<Int>(0)
    /// Blocks whose peaks did not fit in the level ring.
    public let droppedLevelBlocks = Atomic<Int>(0)
    /// Xruns reported by the server.
    public let xruns = Atomic<Int>(0)
    /// The server shut down or kicked us out. Stored `.releasing` after the reason is
    /// copied (see `JackNotifications`); load it `.acquiring` before reading the reason.
    public let serverGone = Atomic<Bool>(false)
    /// The server's new sample rate in Hz once it changed under us; 0 while it has not.
    public let changedSampleRate = Atomic<Int>(0)

    /// The tone's target frequency in Hz, as `Double.bitPattern`.
    public let toneFrequencyBits = Atomic<UInt64>(0)
    /// The tone's target peak amplitude, as `Float.bitPattern`.
    public let toneAmplitudeBits = Atomic<UInt32>(0)
    /// Tone paused (fades out) or playing (fades in).
    public let tonePaused = Atomic<Bool>(false)
    /// Tone asked to fade out and finish (Ctrl-C, `q`).
    public let toneStopRequested = Atomic<Bool>(false)
    /// The tone's fade-out has ended.
    public let toneFinished = Atomic<Bool>(false)

    public init() {}
}
