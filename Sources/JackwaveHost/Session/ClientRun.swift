import FoundationEssentials
import Glibc
import JackwaveDSP
import JackwaveSoundFiles

/// One JACK client's turn in a run: from `jack_activate` to the end of its audio. A run has
/// one, or, with `--reconnect`, one per time the server came back (`Session`).
///
/// Order is the point of this type. Everything the realtime callback touches is built in
/// `init`, before `jack_activate`; frame 0 comes only after the ports are connected; at the
/// end the callback stops before the rings are drained, and the writer has closed the files
/// before `finish` returns. The run's parts (files, level stream, loudness, observer,
/// markers) are the session's, and go on after this turn.
final class ClientRun {
    let client: JackClient
    let parts: SessionParts
    let ports: ClientPorts
    let signals = EngineSignals()
    let engine: RealtimeEngine
    let notifications: JackNotifications
    /// The inputs' capture latency, read at frame 0 and after each latency callback.
    let latencyWatch: LatencyWatch
    /// Connects planned sources again when their ports come back.
    let reconnector: SourceReconnector
    let writer: RecordingWriter?
    /// Armed: the take logic the writer runs.
    let takes: TakeController?
    /// Where this turn's frame 0 lies on the run's timeline.
    let timelineBase: Int64
    /// Stop after this many frames (what `--duration` leaves), nil to run until stopped.
    let frameLimit: Int64?
    /// The ports' full names, to tell a connection between two of our own ports.
    private let inputNames: [String]
    private let outputNames: [String]
    /// Whether the server still runs the callback (PipeWire does not say when it dies).
    private var serverWatch = ServerWatch(isPipeWire: JackClient.isPipeWire, socketPath: PipeWireSocket.path())
    /// Frames the server skipped that have been reported so far.
    private var reportedSkippedFrames = 0
    /// When the tone was asked to fade out (a first Ctrl-C, `q`), if it was.
    private var toneStopRequestedAt: Date?
    /// When the main loop began, for the status line's elapsed time.
    private var loopStartDate = Date()
    /// `--split-every`: the wall clock's readings, handed to the files once a second.
    private var clockWatch: ClockWatch
    /// Wall-clock time of frame 0, once the turn has started.
    private(set) var startTime: WallClockTime?

    /// Builds the engine for `ports` (registered on `client`), warmed up, and the writer and
    /// the take logic for the run's files, for a turn starting at `timelineBase` on the run's
    /// timeline that plays `tone` and stops after `frameLimit` frames.
    init(client: JackClient, ports: ClientPorts, parts: SessionParts, timelineBase: Int64, frameLimit: Int64?,
         tone: ToneSettings?, writerStallMicroseconds: UInt32) throws(SessionError) {
        self.client = client
        self.parts = parts
        self.ports = ports
        self.timelineBase = timelineBase
        self.frameLimit = frameLimit
        clockWatch = ClockWatch(sampleRate: parts.sampleRate)
        inputNames = ports.inputs.map(\.fullName)
        outputNames = ports.outputs.map(\.fullName)
        let rate = parts.sampleRate
        // The level ring holds 2 s of blocks at the smallest period JACK allows (16 frames),
        // so a busy main thread (a slow terminal) never loses levels.
        var configuration = EngineConfiguration(
            inputs: ports.inputs.count, outputs: ports.outputs.count, audioRingFrames: parts.audioRingFrames,
            levelRingBlocks: parts.levels == nil ? 0 : 2 * rate / 16, frameLimit: frameLimit, tone: tone)
        if parts.takeSettings != nil {
            configuration.blockRingBlocks = Self.blockRingBlocks(audioRingFrames: configuration.audioRingFrames)
            configuration.followsTransport = parts.takeSettings?.followsTransport ?? false
        }
        RealtimeEngine.warmUp(like: configuration, sampleRate: rate)
        engine = RealtimeEngine(configuration: configuration, inputs: ports.inputs, outputs: ports.outputs,
                                sampleRate: rate, signals: signals, client: client)
        // A connection between two of our own ports feeds the input inside the engine.
        let feeds = engine.ownOutputFeeds
        let (inputs, outputs) = (inputNames, outputNames)
        let observer = parts.observer
        let signals = self.signals
        notifications = JackNotifications(client: client, signals: signals, messages: parts.messages,
                                          ownConnectionChanged: { from, to, connected in
                                              Self.ownConnection(feeds, inputs: inputs, outputs: outputs,
                                                                 from: from, to: to, connected: connected)
                                          },
                                          connectionReported: { from, to, connected in
                                              observer.connection(from: from, to: to, connected: connected,
                                                                  streamFrame: signals.streamFrames.load(ordering: .relaxed))
                                          })
        latencyWatch = LatencyWatch(client: client, inputs: ports.inputs)
        reconnector = SourceReconnector(plan: ports.plan, inputs: ports.inputs, client: client, notifications: notifications,
                                        messages: parts.messages, observer: observer, signals: signals)
        var pipeline: RecordingPipeline?
        if let files = parts.files {
            do throws(RecordingSetupError) { pipeline = try RecordingPipeline(files: files) } catch {
                throw .runtime(error.message)
            }
        }
        if let pipeline, let settings = parts.takeSettings, let ledger = parts.takes, let blocks = engine.blockRing {
            takes = TakeController(settings: settings, pipeline: pipeline, blocks: blocks, ledger: ledger,
                                   timelineBase: timelineBase, onTrigger: Self.triggerEvents(parts.events))
        } else {
            takes = nil
        }
        if let ring = engine.audioRing, pipeline != nil || parts.loudness != nil || parts.stream != nil || parts.alarms != nil {
            writer = RecordingWriter(pipeline: pipeline, ring: ring, drops: engine.dropRing, inputRate: rate,
                                     messages: parts.messages, loudness: parts.loudness, stream: parts.stream?.feed,
                                     alarms: parts.alarms, timelineBase: timelineBase, takes: takes,
                                     dropouts: parts.dropouts.map {
                                         DropoutCounter(ledger: $0, timelineBase: timelineBase,
                                                        thresholds: .default(sampleRate: rate, period: client.bufferSize))
                                     },
                                     stallMicroseconds: writerStallMicroseconds)
        } else {
            writer = nil
        }
    }

    /// `--events`' `trigger` line for each take that starts, when there are events.
    private static func triggerEvents(_ events: EventLog?) -> (@Sendable (Int, Int64, Int) -> Void)? {
        guard let events else { return nil }
        return { number, frame, preRoll in
            events.emit(.trigger, frame: frame, [("take", .int(Int64(number))), ("pre_roll_frames", .int(Int64(preRoll)))])
        }
    }

    /// Block records to hold as many blocks as the audio ring holds frames at JACK's
    /// smallest period (16), so that the records never run out before the audio does.
    static func blockRingBlocks(audioRingFrames: Int) -> Int { max(64, audioRingFrames / 16) }

    /// What control may reach of this turn.
    var controlled: RunControl.Connection {
        RunControl.Connection(signals: signals, writer: writer, takes: takes, timelineBase: timelineBase,
                              sampleRate: parts.sampleRate, files: parts.files, markers: parts.markers,
                              observer: parts.observer, messages: parts.messages, alarms: parts.alarms)
    }

    /// Activates, connects, takes frame 0 (telling `onStart` its wall-clock time), runs the
    /// main loop and ends the audio; returns how it ended. `onActivated` runs right after
    /// `jack_activate`, once the turn's threads exist (to let signals in on this thread).
    func run(_ ui: RunFrontEnd, control: RunControl, onActivated: () -> Void,
             onStart: (WallClockTime) -> Void) -> ClientRunEnd {
        notifications.install()
        latencyWatch.install()
        let context = Unmanaged.passUnretained(engine).toOpaque()
        parts.files?.setOrigin(start: nil, timelineBase: timelineBase)
        parts.observer.beginConnection(timelineBase: timelineBase)
        do throws(JackError) {
            try client.setProcessCallback(RealtimeEngine.processCallback, context: context)
            writer?.start()
            try client.activate()
            client.nameProcessThread("jackwave-rt")
            onActivated()
        } catch {
            ui.error(error.message)
            writer?.requestStop(.drainThenStop)
            _ = writer?.wait(timeout: 5)
            return ClientRunEnd(ending: .activationFailed, handledInterrupts: 0, silentInputs: [])
        }
        for failure in ports.plan.connect(client) { ui.say(failure) }
        waitForConnections()
        // Frame 0 already takes what our own outputs play, not only once the connection's
        // notification has come round.
        for (from, to) in ports.plan.pairs {
            Self.ownConnection(engine.ownOutputFeeds, inputs: inputNames, outputs: outputNames, from: from, to: to, connected: true)
        }
        for input in ports.plan.unconnectedInputs { ui.say("\(input) is not connected: it records silence until you connect it") }
        reconnector.begin()
        // What the sources declare, read before frame 0: the files' stamp subtracts it.
        let latency = parts.latency.started(InputLatencies(names: ports.inputs.map(\.shortName), ranges: latencyWatch.read()))
        if let line = latency.line { ui.say(line) }
        // Frame 0 is the first cycle that sees this store: the clock is read just before it.
        // That cycle starts within a period, and its buffer was captured during the period
        // before it, so the time is right to about one period; the capture latency the
        // sources declare is subtracted for the files' `bext` time.
        let start = parts.clock.reading(atFrame: timelineBase, sampleRate: parts.sampleRate)
        startTime = start
        parts.files?.setStart(start, latency: latency.stamp)
        control.attach(controlled)
        // The connections above are complete (jack_connect waits for the server), so the
        // first cycle that sees this store already hears them. `.releasing`: see EngineSignals.
        signals.started.store(true, ordering: .releasing)
        onStart(start)
        parts.events?.emit(.started, frame: timelineBase)
        parts.latency.announce(frame: timelineBase)

        let (ending, handledInterrupts) = mainLoop(ui, control: control)
        control.attach(nil)
        return finish(ending, handledInterrupts: handledInterrupts, ui)
    }

    /// Waits, at most `connectionWait` seconds, until every planned connection to one of our
    /// inputs shows among its connections, and then for `linkCycles` more cycles. jackd's
    /// `jack_connect` returns with the link made and carrying audio; PipeWire's returns
    /// before the link exists, shows it a moment later, and carries audio on it from a cycle
    /// or two after that: without the wait, a recording would begin with silence in place
    /// of the source's first frames.
    private func waitForConnections() {
        let planned = ports.plan.pairs.compactMap { source, destination in
            inputNames.firstIndex(of: destination).map { (source, ports.inputs[$0]) }
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
    private static func ownConnection(_ feeds: OwnOutputFeeds, inputs: [String], outputs: [String],
                                      from: String, to: String, connected: Bool) {
        guard let o = outputs.firstIndex(of: from), let c = inputs.firstIndex(of: to) else { return }
        if connected { feeds.feed(input: c, from: o) } else if feeds.source(of: c) == o { feeds.feed(input: c, from: nil) }
    }

    /// Fades the tone out; the turn ends when the fade has (or a second later at most).
    private func stopTone() {
        guard toneStopRequestedAt == nil else { return }
        signals.toneStopRequested.store(true, ordering: .relaxed)
        toneStopRequestedAt = Date()
    }

    /// Whether the tone has been asked to fade out.
    private var toneStopping: Bool { toneStopRequestedAt != nil }

    private var playsTone: Bool { engine.configuration.tone != nil }

    /// Polls stop conditions and feeds the level consumers until the turn ends; returns why,
    /// and how many interrupts it has acted on (so that `finish` sees any later one).
    private func mainLoop(_ ui: RunFrontEnd, control: RunControl) -> (RunEnding, Int) {
        var handledInterrupts = 0
        loopStartDate = Date()
        while true {
            usleep(ui.pace)
            flushMessages(ui)
            parts.observer.poll(signals)
            if !signals.serverGone.load(ordering: .relaxed) { watchPorts() }
            watchClock()
            ui.tick(control)
            // The keys or OSC may have asked the tone to fade out.
            if toneStopRequestedAt == nil && signals.toneStopRequested.load(ordering: .relaxed) { toneStopRequestedAt = Date() }
            if let levels = parts.levels {
                if let failure = levels.drain(engine, timelineBase: timelineBase, report: { parts.messages.post($0) }) {
                    return (.levelsFailed(failure), handledInterrupts)
                }
                levels.tick(status: status())
            }
            if let ending = stopCondition() { return (ending, handledInterrupts) }
            let interrupts = ui.interrupts
            if interrupts > handledInterrupts {
                handledInterrupts = interrupts
                // With a tone, the first Ctrl-C fades it out; the turn ends when the fade has.
                if playsTone && !toneStopping && interrupts == 1 {
                    stopTone()
                } else {
                    return (.interrupted, handledInterrupts)
                }
            }
            if let since = toneStopRequestedAt,
               signals.toneFinished.load(ordering: .relaxed)
                || Date().timeIntervalSince(since) > (engine.configuration.tone?.fadeSeconds ?? 0) + 1 {
                return (.interrupted, handledInterrupts)
            }
        }
    }

    /// Sources that went or came back, and capture latencies that changed: asked of libjack
    /// on this thread, as the notifications queued them.
    private func watchPorts() {
        reconnector.poll()
        if let ranges = latencyWatch.readIfChanged(),
           let line = parts.latency.read(InputLatencies(names: ports.inputs.map(\.shortName), ranges: ranges),
                                         frame: timelineBase + Int64(signals.streamFrames.load(ordering: .relaxed))) {
            parts.messages.post(line)
        }
    }

    /// `--split-every`: a reading of the wall clock for the files' cuts; a step of it is a
    /// line and a `clock_step` event (the piece under way ends at once; no frame is lost).
    private func watchClock() {
        guard let files = parts.files, files.spec.clock != nil else { return }
        let frame = Int64(signals.streamFrames.load(ordering: .relaxed))
        let reading = parts.clock.reading(atFrame: timelineBase + frame, sampleRate: parts.sampleRate)
        guard let (at, time) = clockWatch.offer(frame: frame, reading: reading),
              let step = files.observeClock(frame: at, reading: time) else { return }
        let timeline = timelineBase + step.frame
        parts.messages.post(String(printf: "the wall clock stepped %+.3f s at %.3f s", step.seconds, Double(timeline) / Double(parts.sampleRate))
                            + " (it read \(step.reading.iso8601) where the audio's clock said \(step.expected.iso8601)); a new file starts there, no frame is lost")
        parts.events?.emit(.clockStep, frame: timeline, [("seconds", .double(step.seconds)), ("reading", .string(step.reading.iso8601)),
                                                         ("expected", .string(step.expected.iso8601))])
    }

    /// Why the turn must end now, if it must: the server, the writer or the engine says so.
    private func stopCondition() -> RunEnding? {
        // `.acquiring`: the shutdown callback copied the reason before its store.
        if signals.serverGone.load(ordering: .acquiring) {
            parts.messages.post(notifications.shutdownLine)
            return .serverGone
        }
        switch serverWatch.check(cycles: signals.cycles.load(ordering: .relaxed)) {
        case .gone:
            parts.messages.post("PipeWire is gone: no cycle since \(ServerWatch.probeAfter) s and nothing listens on \(serverWatch.socketPath ?? "its socket")")
            return .serverGone
        case let .silentFor(seconds):
            parts.messages.post(String(printf: "no audio cycle from the JACK server for %.1f s: is it stopped?", seconds))
        case .running:
            break
        }
        let rate = signals.changedSampleRate.load(ordering: .relaxed)
        if rate != 0 { return .sampleRateChanged(from: parts.sampleRate, to: rate) }
        if let writer, writer.failed.load(ordering: .relaxed) { return .writeFailed(writer.failure ?? "write failed") }
        if signals.finished.load(ordering: .relaxed) { return .finished }
        if let ledger = parts.takes, ledger.allDone { return .finished }
        // A bare tone (no file, no duration) ends with its own fade-out.
        if playsTone && parts.files == nil && frameLimit == nil
            && signals.toneFinished.load(ordering: .relaxed) { return .interrupted }
        return nil
    }

    /// Stops JACK, drains the rings and has the writer close its files; returns how the
    /// turn ended. The client stays open (the session closes it).
    private func finish(_ ending: RunEnding, handledInterrupts: Int, _ ui: RunFrontEnd) -> ClientRunEnd {
        let serverAlive = ending != .serverGone
        // Who fed each input, asked while the server is still there to answer.
        let feeders = serverAlive ? ports.inputs.map(\.connections) : nil
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
        var abandoned = false
        if let writer { abandoned = drainWriter(writer, ending: ending, handledInterrupts: handledInterrupts, ui) }
        parts.levels?.endConnection(engine, timelineBase: timelineBase, report: { parts.messages.post($0) })
        flushMessages(ui)
        // A write that failed while draining, after the turn had ended for another reason.
        var lateFailure: String?
        if let writer, writer.failed.load(ordering: .relaxed) {
            if case .writeFailed = ending {} else { lateFailure = writer.failure ?? "write failed" }
        }
        var silent: [String] = []
        if let writer, writer.pipeline != nil, let feeders, !abandoned {
            for c in writer.silentChannels where !feeders[c].isEmpty {
                silent.append("\(ports.inputs[c].shortName): connected to \(feeders[c].joined(separator: ", ")), received only silence")
            }
        }
        return ClientRunEnd(ending: ending, handledInterrupts: handledInterrupts, lateWriteFailure: lateFailure,
                            silentInputs: silent, receivedFrames: Int64(signals.streamFrames.load(ordering: .relaxed)),
                            xruns: signals.xruns.load(ordering: .relaxed),
                            droppedFrames: signals.droppedFrames.load(ordering: .relaxed),
                            endTime: endTime)
    }

    /// Lets the writer drain the ring and close the files; returns whether it stopped
    /// without draining. An interrupt the main loop did not act on (one during the fade or
    /// while stopping) asks for a stop without draining.
    private func drainWriter(_ writer: RecordingWriter, ending: RunEnding, handledInterrupts: Int, _ ui: RunFrontEnd) -> Bool {
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
        return abandoned
    }

    /// Says what happened since the last pass: connections, drops, lost levels, frames the
    /// server skipped, and what the run's other threads have to say.
    func flushMessages(_ ui: RunFrontEnd) {
        let skipped = signals.skippedFrames.load(ordering: .relaxed)
        if skipped > reportedSkippedFrames {
            let at = Double(timelineBase + Int64(signals.streamFrames.load(ordering: .relaxed))) / Double(parts.sampleRate)
            parts.messages.post(String(printf: "the server skipped %d frames by %.3f s (it did not run jackwave for them; the file goes on without them)",
                                       skipped - reportedSkippedFrames, at))
            reportedSkippedFrames = skipped
        }
        if !notifications.isQuiet && !signals.serverGone.load(ordering: .relaxed) { notifications.reportConnections() }
        parts.flushLines(to: ui)
    }

    /// The status line's figures now.
    func status() -> StatusSnapshot {
        // Armed, the file growing is the last take's.
        let path = parts.files?.currentPath
        let fileBytes = path.flatMap { path -> Int64? in
            var info = stat()
            return stat(path, &info) == 0 ? Int64(info.st_size) : nil
        }
        let ringFill = parts.files == nil ? nil : engine.audioRing.map { Double($0.approximateFill) / Double($0.capacity) }
        var snapshot = StatusSnapshot(
            elapsedSeconds: Date().timeIntervalSince(loopStartDate), recordPath: path, fileBytes: fileBytes,
            ringFill: ringFill, xruns: signals.xruns.load(ordering: .relaxed),
            droppedFrames: signals.droppedFrames.load(ordering: .relaxed),
            toneFrequency: playsTone ? Double(bitPattern: signals.toneFrequencyBits.load(ordering: .relaxed)) : nil,
            toneAmplitude: playsTone ? Float(bitPattern: signals.toneAmplitudeBits.load(ordering: .relaxed)) : nil,
            tonePaused: signals.tonePaused.load(ordering: .relaxed))
        snapshot.takeStatus = takeStatus
        snapshot.alarmStatus = parts.alarms?.state.text(now: timelineBase + Int64(signals.streamFrames.load(ordering: .relaxed)),
                                                        sampleRate: parts.sampleRate)
        return snapshot
    }

    /// The armed state for the status line: "armed", "recording take 3",
    /// "take 3 stopping in 1.2 s"; nil when not armed.
    var takeStatus: String? {
        guard let takes else { return nil }
        let number = takes.takeNumber.load(ordering: .relaxed)
        switch TakePhase(rawValue: takes.phase.load(ordering: .relaxed)) ?? .armed {
        case .armed: return "armed"
        case .recording: return "recording take \(number)"
        case .stopping:
            let left = Double(takes.framesToStop.load(ordering: .relaxed)) / Double(parts.sampleRate)
            return String(printf: "take %d stopping in %.1f s", number, left)
        }
    }

    /// The wall-clock time of the frame after the last one received (frame 0's time plus
    /// the frames since), once the turn has started.
    var endTime: WallClockTime? {
        startTime?.adding(frames: Int64(signals.streamFrames.load(ordering: .relaxed)), sampleRate: parts.sampleRate)
    }
}

/// How a client's turn ended, and what it counted.
struct ClientRunEnd {
    let ending: RunEnding
    let handledInterrupts: Int
    var lateWriteFailure: String? = nil
    let silentInputs: [String]
    var receivedFrames: Int64 = 0
    var xruns = 0
    var droppedFrames = 0
    var endTime: WallClockTime? = nil
}
