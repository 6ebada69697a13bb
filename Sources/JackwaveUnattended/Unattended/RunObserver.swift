import JackwaveRecording
import JackwaveRunSupport
import Synchronization

/// What watches a whole run from outside its connections: it turns file openings and
/// closings, `EngineSignals`' counters and connection reports into `--events` lines, and
/// hands each finalized file to the file finisher (which claims its markers) and its take to the
/// ledger. One observer lives for the whole command: `frameBase` carries the run's timeline
/// across reconnects.
public final class RunObserver: RecordingFilesObserver, @unchecked Sendable {
    public let events: EventLog?
    let finisher: FileFinisher?
    let takes: TakeLedger?
    let markers: MarkerBook
    /// Frames received in earlier connections (`--reconnect`): added to this connection's
    /// stream position. Set by the main thread while no writer runs; read by the writer
    /// (relaxed: the writer thread is started after the store, which orders the two).
    public let frameBase = Atomic<Int64>(0)
    /// The counters already turned into events (`xrun`, `dropped`, `skipped`), in that order.
    private var reported = [0, 0, 0]

    public convenience init(events: EventLog?, markers: MarkerBook) {
        self.init(events: events, finisher: nil, takes: nil, markers: markers)
    }

    package init(events: EventLog?, finisher: FileFinisher?, takes: TakeLedger?, markers: MarkerBook) {
        self.events = events
        self.finisher = finisher
        self.takes = takes
        self.markers = markers
    }

    /// The stream position `streamFrame` of this connection on the run's timeline.
    public func timeline(streamFrame: Int) -> Int64 { frameBase.load(ordering: .relaxed) + Int64(streamFrame) }

    public func fileStarted(_ file: RecordedFile) {
        events?.emit(.fileOpened, frame: file.firstFrame, [("path", .string(file.path))]
                     + (file.startTimecode.map { [("timecode", .string($0))] } ?? []))
        if let missing = file.timecodeMissing {
            events?.emit(.timecodeMissing, frame: file.firstFrame, [("path", .string(file.path)), ("reason", .string(missing.rawValue))])
        }
    }

    public func fileClosed(_ file: RecordedFile) {
        var fields: [(String, EventLog.Value)] = [("path", .string(file.path)), ("frames", .int(file.frames)), ("ok", .bool(file.ok))]
        if let start = file.startTimecode { fields.append(("start_timecode", .string(start))) }
        if let end = file.endTimecode { fields.append(("end_timecode", .string(end))) }
        if file.timecodeJumped { fields.append(("timecode_jumped", .bool(true))) }
        events?.emit(.fileClosed, frame: file.endFrame, fields)
        takes?.add(file)
        // The finisher claims the file's markers once what is written beside it is done.
        if let finisher {
            finisher.enqueue(FileFinisher.Job(file: file, markers: markers))
        } else {
            _ = markers.claim(from: file.firstFrame, to: file.endFrame)
        }
    }

    /// A connection made or broken, as the main thread reports it.
    package func connection(from: String, to: String, connected: Bool, streamFrame: Int) {
        events?.emit(connected ? .connected : .disconnected, frame: timeline(streamFrame: streamFrame),
                     [("from", .string(from)), ("to", .string(to))])
    }

    /// A source port that went (`.sourceGone`) or is connected again (`.sourceBack`).
    package func source(_ kind: RunEventKind, port: String, input: String, streamFrame: Int) {
        events?.emit(kind, frame: timeline(streamFrame: streamFrame), [("port", .string(port)), ("input", .string(input))])
    }

    /// On each pass of the main loop: xruns, dropped frames and frames the server skipped
    /// since the last pass.
    public func poll(_ signals: EngineSignals) {
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

    /// A new connection's counters start from 0 again (`--reconnect`), at `timelineBase`.
    public func beginConnection(timelineBase: Int64) {
        reported = [0, 0, 0]
        frameBase.store(timelineBase, ordering: .relaxed)
    }
}
