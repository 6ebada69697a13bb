import Synchronization

/// What watches a run from outside for `--events` and `--on-close`: it turns the files'
/// openings and closings (writer thread), the counters in `EngineSignals` and the
/// connection reports (main thread) into events, and hands finalized files to the hook.
///
/// One observer lives for the whole command, across reconnects: `frameBase` carries the
/// run's timeline from one connection to the next.
public final class RunObserver: RecordingFilesObserver, @unchecked Sendable {
    public let events: EventLog?
    public let hook: CloseHook?
    /// `--osc`: remote control (which owns its listener, kept alive with the observer).
    public var remote: RemoteControl?
    /// Frames received in earlier connections (`--reconnect`): added to this connection's
    /// stream position. Set by the main thread while no writer runs; read by the writer
    /// (relaxed: the writer thread is started after the store, which orders the two).
    public let frameBase = Atomic<Int64>(0)
    /// The file's and the server's rates, to put file frames on the server's timeline.
    private let rates = Atomic<Int64>(0)
    /// The counters already turned into events (`xrun`, `dropped`, `skipped`), in that order.
    private var reported = [0, 0, 0]

    public init(events: EventLog?, hook: CloseHook?) {
        self.events = events
        self.hook = hook
    }

    /// Whether anything listens: a run without `--events` or `--on-close` needs no observer.
    public var isActive: Bool { events != nil || hook != nil || remote != nil }

    /// Sets the rates of the files that follow (file rate in the high half, server rate in the low).
    public func setRates(file: Int, server: Int) {
        rates.store(Int64(file) << 32 | Int64(server), ordering: .relaxed)
    }

    /// A file frame on the run's timeline (server frames since frame 0).
    private func timeline(fileFrame: Int64) -> Int64 {
        let r = rates.load(ordering: .relaxed)
        let file = r >> 32, server = r & 0xffff_ffff
        let frame = file == 0 || file == server ? fileFrame : fileFrame * server / file
        return frameBase.load(ordering: .relaxed) + frame
    }

    /// The stream position `streamFrame` of this connection on the run's timeline.
    public func timeline(streamFrame: Int) -> Int64 { frameBase.load(ordering: .relaxed) + Int64(streamFrame) }

    public func fileStarted(path: String, atFileFrame frame: Int64) {
        events?.emit(.fileOpened, frame: timeline(fileFrame: frame), [("path", .string(path))])
    }

    public func fileClosed(path: String, frames: Int64, endFileFrame: Int64, ok: Bool) {
        let end = timeline(fileFrame: endFileFrame)
        events?.emit(.fileClosed, frame: end, [("path", .string(path)), ("frames", .int(frames)), ("ok", .bool(ok))])
        if ok { hook?.fileClosed(path, frame: end) }
    }

    /// A connection made or broken, as the main thread reports it.
    func connection(from: String, to: String, connected: Bool, streamFrame: Int) {
        events?.emit(connected ? .connected : .disconnected, frame: timeline(streamFrame: streamFrame),
                     [("from", .string(from)), ("to", .string(to))])
    }

    /// On each pass of the main loop: xruns, dropped frames and frames the server skipped
    /// since the last pass; OSC's waiting messages are acted on (`RemoteControl.pump`); the
    /// hook's and OSC's lines move to the run's `messages`.
    public func poll(_ signals: EngineSignals, messages: MessageQueue) {
        if let hook { for line in hook.messages.drain() { messages.post(line) } }
        if let remote {
            remote.pump()
            for line in remote.lines.drain() { messages.post(line) }
        }
        let frame = timeline(streamFrame: signals.streamFrames.load(ordering: .relaxed))
        guard let events else { return }
        let counters: [(RunEventKind, String, Int)] = [
            (.xrun, "count", signals.xruns.load(ordering: .relaxed)),
            (.dropped, "frames", signals.droppedFrames.load(ordering: .relaxed)),
            (.skipped, "frames", signals.skippedFrames.load(ordering: .relaxed)),
        ]
        for (i, (kind, field, total)) in counters.enumerated() where total > reported[i] {
            events.emit(kind, frame: frame, [(field, .int(Int64(total - reported[i])))])
            reported[i] = total
        }
    }

    /// A new connection's counters start from 0 again (`--reconnect`).
    public func resetCounters() {
        reported = [0, 0, 0]
    }
}

/// Told by `RecordingFiles` (on the writer thread) when a file gets its first frame and
/// when it is finalized. Frames are at the file's rate, from the recording's first frame.
public protocol RecordingFilesObserver: AnyObject, Sendable {
    func fileStarted(path: String, atFileFrame frame: Int64)
    func fileClosed(path: String, frames: Int64, endFileFrame: Int64, ok: Bool)
}
