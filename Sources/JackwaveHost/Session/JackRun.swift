import FoundationEssentials
import Glibc
import JackwaveDSP
import JackwaveSoundFiles

/// One run of the JACK client, from activation to the summary line.
///
/// Order is the point of this type. Everything the realtime callback touches is built in
/// `init`, before `jack_activate`; the run's frame 0 comes only after the ports are
/// connected; at the end the callback stops before the rings are drained, and the files
/// are closed before the summary is said. What the user sees and types is the front end's
/// (`RunFrontEnd`); what happens when is decided here.
public final class JackRun {
    public let client: JackClient
    public let sampleRate: Int
    public let settings: RunSettings
    public let signals = EngineSignals()
    public let engine: RealtimeEngine
    let messages = MessageQueue()
    let notifications: JackNotifications
    let writer: RecordingWriter?
    /// Armed: the take logic the writer runs; nil records from start to end.
    public let takes: TakeController?
    /// Markers dropped during the run (`dropMarker`), written into the files at the end.
    public let markers = MarkerBook()
    let recording: RecordingPipeline?
    let plan: ConnectionPlan
    let levels: LevelPipeline?
    /// The live loudness analysis (`--loudness`), fed by the writer or, when only metering,
    /// by the engine's audio ring.
    let loudness: LoudnessFeed?
    /// The ports' full names, to tell a connection between two of our own ports.
    let inputNames: [String]
    let outputNames: [String]
    /// The input ports, for their connections at the end.
    let inputs: [JackPort]
    /// Wall-clock time of frame 0, once the run has started.
    public private(set) var startTime: WallClockTime?
    /// When the main loop began, for the status line's elapsed time.
    var loopStartDate = Date()
    /// Whether the server still runs the callback (PipeWire does not say when it dies).
    private var serverWatch = ServerWatch(isPipeWire: JackClient.isPipeWire, socketPath: PipeWireSocket.path())
    /// Frames the server skipped that have been reported so far.
    private var reportedSkippedFrames = 0
    /// When the tone was asked to fade out (a first Ctrl-C, `q`), if it was.
    private var toneStopRequestedAt: Date?
    /// `--events` and `--on-close`, when asked for; set before `run`.
    public var observer: RunObserver?
    /// What earlier connections recorded (`--reconnect`), for the summary; set before `run`.
    public var carried: RunTotals?
    /// Why the run ended, once it has.
    public private(set) var ending: RunEnding?
    /// The server went and `--reconnect` asks for another connection: the run ended
    /// quietly, with its files complete.
    public private(set) var awaitsReconnect = false
    /// Told of frame 0's wall-clock time, on the main thread, once the run has started.
    public var onStart: ((WallClockTime) -> Void)?
    /// The live stream (`--stream`), fed by the writer: see `JackRun+Stream`.
    private(set) var stream: Streamer?

    /// Builds the engine for registered ports, warmed up, and the writer for `recording`.
    /// The level ring exists only when `levels` consumes it.
    public init(client: JackClient, inputs: [JackPort], outputs: [JackPort], recording: RecordingPipeline?,
                plan: ConnectionPlan, levels: LevelPipeline?, settings: RunSettings, loudness: LoudnessFeed? = nil) {
        self.client = client
        sampleRate = client.sampleRate
        self.recording = recording
        self.plan = plan
        self.levels = levels
        self.loudness = loudness
        self.settings = settings
        self.inputs = inputs
        inputNames = inputs.map(\.fullName)
        outputNames = outputs.map(\.fullName)
        // The level ring holds 2 s of blocks at the smallest period JACK allows (16 frames),
        // so a busy main thread (a slow terminal) never loses levels.
        let levelBlocks = levels == nil ? 0 : 2 * sampleRate / 16
        var configuration = EngineConfiguration(
            inputs: inputs.count, outputs: outputs.count,
            audioRingFrames: recording == nil ? LoudnessFeed.meterRingFrames(loudness, sampleRate: sampleRate)
                : Int(settings.bufferSeconds * Double(sampleRate)),
            levelRingBlocks: levelBlocks, frameLimit: settings.frameLimit, tone: settings.tone)
        if settings.takes != nil && recording != nil {
            configuration.blockRingBlocks = Self.blockRingBlocks(audioRingFrames: configuration.audioRingFrames)
            configuration.followsTransport = settings.takes?.followsTransport ?? false
        }
        RealtimeEngine.warmUp(like: configuration, sampleRate: sampleRate)
        engine = RealtimeEngine(configuration: configuration, inputs: inputs, outputs: outputs,
                                sampleRate: sampleRate, signals: signals, client: client)
        notifications = JackNotifications(client: client, signals: signals, messages: messages)
        if let recording, let take = settings.takes, let blocks = engine.blockRing {
            takes = TakeController(settings: take, pipeline: recording, blocks: blocks)
        } else {
            takes = nil
        }
        levels?.takes = takes
        if let recording, let ring = engine.audioRing {
            writer = RecordingWriter(pipeline: recording, ring: ring, drops: engine.dropRing, messages: messages,
                                     stallMicroseconds: settings.writerStallMicroseconds, takes: takes)
        } else {
            writer = nil
        }
        attachLoudness()
        stream = makeStream()
    }

    /// Whether this run plays a tone.
    public var playsTone: Bool { settings.tone != nil }
    /// Whether this run records.
    public var records: Bool { recording != nil }

    /// Runs to the end and returns the exit code. `onActivated` runs right after
    /// `jack_activate`, once the run's threads exist (to let signals in on this thread).
    public func run(_ ui: RunFrontEnd, onActivated: () -> Void) -> Int32 {
        notifications.ownConnectionChanged = { [unowned self] from, to, connected in
            ownConnection(from: from, to: to, connected: connected)
        }
        notifications.install()
        attachObserver()
        let context = Unmanaged.passUnretained(engine).toOpaque()
        do throws(JackError) {
            try client.setProcessCallback(RealtimeEngine.processCallback, context: context)
            writer?.start()
            loudness?.start()
            stream?.start()
            try client.activate()
            client.nameProcessThread("jackwave-rt")
            onActivated()
        } catch {
            ui.error(error.message)
            writer?.requestStop(.drainThenStop)
            _ = writer?.wait(timeout: 5)
            loudness?.inputEnded()
            return 1
        }
        for failure in plan.connect(client) { ui.say(failure) }
        waitForConnections()
        // Frame 0 already takes what our own outputs play, not only once the connection's
        // notification has come round.
        for (from, to) in plan.pairs { ownConnection(from: from, to: to, connected: true) }
        for input in plan.unconnectedInputs { ui.say("\(input) is not connected: it records silence until you connect it") }
        // Frame 0 is the first cycle that sees this store: the clock is read just before it.
        // That cycle starts within a period, and its buffer was captured during the period
        // before it, so the time is right to about one period (plus capture latency).
        let start = WallClockTime.now()
        startTime = start
        writer?.setStart(start)
        // The connections above are complete (jack_connect waits for the server), so the
        // first cycle that sees this store already hears them. `.releasing`: see EngineSignals.
        signals.started.store(true, ordering: .releasing)
        if settings.printStart { ui.say("first frame at \(start.iso8601)") }
        if let line = armedLine() { ui.say(line) }
        onStart?(start)
        observer?.events?.emit(.started, frame: observer?.timeline(streamFrame: 0) ?? 0)

        let (ending, handledInterrupts) = mainLoop(ui)
        return finish(ending, handledInterrupts: handledInterrupts, ui)
    }

    /// Waits, at most `connectionWait` seconds, until every planned connection to one of our
    /// inputs shows among its connections, and then for `linkCycles` more cycles. jackd's
    /// `jack_connect` returns with the link made and carrying audio; PipeWire's returns
    /// before the link exists, shows it a moment later, and carries audio on it from a cycle
    /// or two after that: without the wait, a recording would begin with silence in place
    /// of the source's first frames.
    func waitForConnections() {
        let planned = plan.pairs.compactMap { source, destination in
            inputNames.firstIndex(of: destination).map { (source, inputs[$0]) }
        }
        guard !planned.isEmpty else { return }
        let deadline = Date().addingTimeInterval(Self.connectionWait)
        while !planned.allSatisfy({ $1.connections.contains($0) }) && Date() < deadline { usleep(2_000) }
        let shown = signals.cycles.load(ordering: .relaxed)
        while signals.cycles.load(ordering: .relaxed) < shown + Self.linkCycles && Date() < deadline { usleep(1_000) }
    }

    /// Cycles a shown link may take to carry audio (PipeWire); a few periods at a run's start.
    static let linkCycles = 4

    /// Long enough for a loaded PipeWire to make its links; a connection that never shows
    /// (refused, or removed at once) costs a run no more than this at its start.
    static let connectionWait = 2.0

    /// A connection between two of our own ports: an output connected to an input feeds it
    /// inside the engine (`OwnOutputFeeds`); a broken one stops feeding it.
    func ownConnection(from: String, to: String, connected: Bool) {
        guard let o = outputNames.firstIndex(of: from), let c = inputNames.firstIndex(of: to) else { return }
        let feeds = engine.ownOutputFeeds
        if connected { feeds.feed(input: c, from: o) } else if feeds.source(of: c) == o { feeds.feed(input: c, from: nil) }
    }

    /// Changes the playing tone; the callback picks each value up on its next cycle.
    public func setTone(frequency: Double, amplitude: Float, paused: Bool) {
        // Each is an independent value the callback polls (relaxed).
        signals.toneFrequencyBits.store(frequency.bitPattern, ordering: .relaxed)
        signals.toneAmplitudeBits.store(amplitude.bitPattern, ordering: .relaxed)
        signals.tonePaused.store(paused, ordering: .relaxed)
    }

    /// The tone as the callback plays it now: what the keys or `/jackwave/tone/*` last set.
    public var playingTone: (frequency: Double, amplitude: Float, paused: Bool) {
        // The same independent values `setTone` and OSC store (relaxed): each is read whole.
        (Double(bitPattern: signals.toneFrequencyBits.load(ordering: .relaxed)),
         Float(bitPattern: signals.toneAmplitudeBits.load(ordering: .relaxed)),
         signals.tonePaused.load(ordering: .relaxed))
    }

    /// Fades the tone out; the run ends when the fade has (or a second later at most).
    public func stopTone() {
        guard toneStopRequestedAt == nil else { return }
        signals.toneStopRequested.store(true, ordering: .relaxed)
        toneStopRequestedAt = Date()
    }

    /// Whether the tone has been asked to fade out.
    public var toneStopping: Bool { toneStopRequestedAt != nil }

    /// Polls stop conditions and feeds the level consumers until the run ends; returns why,
    /// and how many interrupts it has acted on (so that `finish` sees any later one).
    private func mainLoop(_ ui: RunFrontEnd) -> (RunEnding, Int) {
        var handledInterrupts = 0
        loopStartDate = Date()
        while true {
            usleep(ui.pace)
            flushMessages(ui)
            observer?.poll(signals, messages: messages)
            ui.tick(self)
            if let levels {
                if let failure = levels.drain(engine, report: { messages.post($0) }) {
                    return (.levelsFailed(failure), handledInterrupts)
                }
                levels.tick(status: status())
            }
            if let ending = stopCondition() { return (ending, handledInterrupts) }
            let interrupts = ui.interrupts
            if interrupts > handledInterrupts {
                handledInterrupts = interrupts
                // With a tone, the first Ctrl-C fades it out; the run ends when the fade has.
                if playsTone && !toneStopping && interrupts == 1 {
                    stopTone()
                } else {
                    return (.interrupted, handledInterrupts)
                }
            }
            if let since = toneStopRequestedAt,
               signals.toneFinished.load(ordering: .relaxed)
                || Date().timeIntervalSince(since) > (settings.tone?.fadeSeconds ?? 0) + 1 {
                return (.interrupted, handledInterrupts)
            }
        }
    }

    /// Why the run must end now, if it must: the server, the writer or the engine says so.
    private func stopCondition() -> RunEnding? {
        // `.acquiring`: the shutdown callback copied the reason before its store.
        if signals.serverGone.load(ordering: .acquiring) {
            messages.post(notifications.shutdownLine)
            return .serverGone
        }
        switch serverWatch.check(cycles: signals.cycles.load(ordering: .relaxed)) {
        case .gone:
            messages.post("PipeWire is gone: no cycle since \(ServerWatch.probeAfter) s and nothing listens on \(serverWatch.socketPath ?? "its socket")")
            return .serverGone
        case let .silentFor(seconds):
            messages.post(String(printf: "no audio cycle from the JACK server for %.1f s: is it stopped?", seconds))
        case .running:
            break
        }
        let rate = signals.changedSampleRate.load(ordering: .relaxed)
        if rate != 0 { return .sampleRateChanged(from: sampleRate, to: rate) }
        if let writer, writer.failed.load(ordering: .relaxed) { return .writeFailed(writer.failure ?? "write failed") }
        if signals.finished.load(ordering: .relaxed) { return .finished }
        if let takes, takes.allTakesDone.load(ordering: .relaxed) { return .finished }
        // A bare tone (no file, no duration) ends with its own fade-out.
        if playsTone && recording == nil && settings.frameLimit == nil
            && signals.toneFinished.load(ordering: .relaxed) { return .interrupted }
        return nil
    }

    /// Stops JACK, drains the rings, closes the files and says the summary.
    private func finish(_ ending: RunEnding, handledInterrupts: Int, _ ui: RunFrontEnd) -> Int32 {
        self.ending = ending
        let serverAlive = ending != .serverGone
        // Who fed each input, asked while the server is still there to answer.
        let feeders = serverAlive ? inputs.map(\.connections) : nil
        notifications.quiet(reportingQueued: serverAlive)
        // Stop taking frames before deactivating: `jack_deactivate` disconnects our ports
        // first, and a cycle run after that records a period of silence that never arrived
        // (seen at the end of Ctrl-C'd takes on jackd -S). The cycle under way when this is
        // stored still has its connections, so it counts whole.
        if serverAlive {
            signals.started.store(false, ordering: .releasing)
            client.deactivate()
        }
        engine.publishPendingDrop()
        if writer == nil { loudness?.inputEnded() }
        levels?.drainAndClose(engine, report: { messages.post($0) })
        ui.audioStopped()
        var code = ending.exitCode
        if let writer { drainWriter(writer, ending: ending, handledInterrupts: handledInterrupts, ui) }
        finishLoudness(ui)
        finishStream(ui)
        // A write that failed while draining, after the run had ended for another reason.
        var lateWriteFailure: String?
        if let writer, writer.failed.load(ordering: .relaxed) {
            if case .writeFailed = ending {} else { lateWriteFailure = writer.failure ?? "write failed" }
        }
        flushMessages(ui)
        // The caller goes on with the next connection; it says what happened.
        if ending == .serverGone && settings.reconnects && lateWriteFailure == nil {
            awaitsReconnect = true
            return code
        }
        if let line = ending.errorLine { ui.error(line) }
        if let lateWriteFailure {
            ui.error("\(lateWriteFailure); the file holds everything written before the error")
            code = 1
        }
        if let message = levels?.failure, ending != .levelsFailed(message) {
            ui.error(message)
            code = 1
        }
        if let writer, let feeders {
            for c in writer.silentChannels where !feeders[c].isEmpty {
                ui.say("\(inputs[c].shortName): connected to \(feeders[c].joined(separator: ", ")), received only silence")
            }
        }
        for line in takeLines() { ui.say(line) }
        for line in writeMarkers() { ui.say(line) }
        ui.say(summary())
        return code
    }

    /// Lets the writer drain the ring and close the files. An interrupt the main loop did
    /// not act on (one during the fade or while stopping) asks for a stop without draining.
    private func drainWriter(_ writer: RecordingWriter, ending: RunEnding, handledInterrupts: Int, _ ui: RunFrontEnd) {
        var handled = handledInterrupts
        var abandoned = false
        if case .interrupted = ending, ui.interrupts > handled {
            handled = ui.interrupts
            abandoned = true
        }
        writer.requestStop(abandoned ? .stopNow : .drainThenStop)
        while !writer.wait(timeout: 0.05) {
            if ui.interrupts > handled {
                handled = ui.interrupts
                abandoned = true
                writer.requestStop(.stopNow)
            }
            flushMessages(ui)
        }
        if abandoned, let ring = engine.audioRing {
            // The writer has ended: the main thread may read the ring as its consumer now.
            ui.say("stopping without draining the buffer: \(ring.readableCount) frames received were not written")
        }
    }

    /// Says what happened since the last pass: connections, drops, lost levels, frames the
    /// server skipped.
    private func flushMessages(_ ui: RunFrontEnd) {
        let skipped = signals.skippedFrames.load(ordering: .relaxed)
        if skipped > reportedSkippedFrames {
            let at = Double(signals.streamFrames.load(ordering: .relaxed)) / Double(sampleRate)
            messages.post(String(printf: "the server skipped %d frames by %.3f s (it did not run jackwave for them; the file goes on without them)",
                                 skipped - reportedSkippedFrames, at))
            reportedSkippedFrames = skipped
        }
        if !notifications.isQuiet && !signals.serverGone.load(ordering: .relaxed) { notifications.reportConnections() }
        for line in messages.drain() { ui.say(line) }
    }
}
