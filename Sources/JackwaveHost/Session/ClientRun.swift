import FoundationEssentials
import Glibc
import JackwaveAnalysis
import JackwaveDSP
import JackwaveEngine
import JackwaveMIDI
import JackwaveRecording
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveTimecode
import JackwaveVocabulary

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
    /// `--ltc`: the thread that decodes the LTC input, which the files ask for their time.
    let timecode: TimecodeFollower?
    /// Where this turn's frame 0 lies on the run's timeline.
    let timelineBase: Int64
    /// Stop after this many frames (what `--duration` leaves), nil to run until stopped.
    let frameLimit: Int64?
    /// The ports' full names, to tell a connection between two of our own ports.
    private let inputNames: [String]
    private let outputNames: [String]
    /// Whether the server still runs the callback (PipeWire does not say when it dies).
    var serverWatch = ServerWatch(isPipeWire: JackClient.isPipeWire, socketPath: PipeWireSocket.path())
    /// Frames the server skipped that have been reported so far.
    var reportedSkippedFrames = 0
    /// When the tone was asked to fade out (a first Ctrl-C, `q`), if it was.
    var toneStopRequestedAt: Date?
    /// When the main loop began, for the status line's elapsed time.
    var loopStartDate = Date()
    /// `--split-every`: the wall clock's readings, handed to the files once a second.
    var clockWatch: ClockWatch
    /// Wall-clock time of frame 0, once the turn has started.
    private(set) var startTime: WallClockTime?

    /// Builds the engine for `ports` (registered on `client`), warmed up, and the writer and
    /// the take logic for the run's files, for a turn starting at `timelineBase` on the run's
    /// timeline that plays `tone` and stops after `frameLimit` frames.
    init(client: JackClient, ports: ClientPorts, parts: SessionParts, timelineBase: Int64, frameLimit: Int64?,
         tone: ToneSettings?, seam: TestSeam) throws(SessionError) {
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
        configuration.midiInputs = ports.midiInputs.count
        configuration.controlInput = parts.options.midi.controlPort == nil ? nil : ports.midiInputs.count - 1
        if parts.midi != nil { configuration.midiRingRecords = Self.midiRingRecords }
        if ports.ltcInput != nil { configuration.ltcRingFrames = Self.ltcRingSeconds * rate }
        if parts.takeSettings != nil {
            configuration.blockRingBlocks = Self.blockRingBlocks(audioRingFrames: configuration.audioRingFrames)
            configuration.followsTransport = parts.takeSettings?.followsTransport ?? false
        }
        RealtimeEngine.warmUp(like: configuration, sampleRate: rate)
        engine = RealtimeEngine(configuration: configuration, inputs: ports.inputs, outputs: ports.outputs,
                                sampleRate: rate, signals: signals, client: client, midiInputs: ports.midiInputs,
                                ltcInput: ports.ltcInput)
        if let ring = engine.ltcRing, let gaps = engine.ltcGaps {
            timecode = TimecodeFollower(ring: ring, gaps: gaps, sampleRate: rate, stallMicroseconds: seam.ltcStallMicroseconds,
                                        onEvent: TimecodeReport.handler(parts: parts, timelineBase: timelineBase))
        } else {
            timecode = nil
        }
        if let midi = parts.midiThread, let ring = engine.midiRing {
            // With `--record take.mid` no writer runs: the MIDI thread follows the callback.
            midi.attach(ring: ring, timelineBase: timelineBase, follows: parts.options.recordsMidiOnly ? signals : nil)
        }
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
                                        messages: parts.messages, signals: signals) { [observer] kind, port, input, frame in
            observer.source(kind, port: port, input: input, streamFrame: frame)
        }
        var pipeline: RecordingPipeline?
        if let files = parts.files {
            do throws(RecordingSetupError) { pipeline = try RecordingPipeline(files: files) } catch {
                throw .runtime(Phrase(verbatim: error.message))
            }
        }
        if let pipeline, let settings = parts.takeSettings, let ledger = parts.takes, let blocks = engine.blockRing {
            takes = TakeController(settings: settings, pipeline: pipeline, blocks: blocks, ledger: ledger,
                                   timelineBase: timelineBase, onTrigger: Self.triggerEvents(parts.events))
        } else {
            takes = nil
        }
        // What the writer feeds beside the files; the dropout detection only beside them.
        let consumers: [(any FrameSink)?] = [parts.alarms, parts.loudness, parts.stream?.feed]
        let dropouts = parts.dropouts.map {
            DropoutCounter(ledger: $0, timelineBase: timelineBase, thresholds: .default(sampleRate: rate, period: client.bufferSize))
        }
        if let ring = engine.audioRing, pipeline != nil || consumers.contains(where: { $0 != nil }) {
            writer = RecordingWriter(pipeline: pipeline, ring: ring, drops: engine.dropRing, inputRate: rate,
                                     messages: parts.messages, sinks: (consumers + [dropouts]).compactMap { $0 },
                                     timelineBase: timelineBase, takes: takes, stallMicroseconds: seam.writerStallMicroseconds)
        } else {
            writer = nil
        }
    }

    /// MIDI records between the callback and the MIDI thread: 2 MiB pinned, ten seconds of
    /// over 6,000 events a second, twice what a MIDI 1.0 cable carries on 2 ports.
    static let midiRingRecords = 65536

    /// Seconds of the LTC input between the callback and its decoder (a float a frame).
    static let ltcRingSeconds = 10

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
                              observer: parts.observer, messages: parts.messages, alarms: parts.alarms,
                              midiActivity: engine.midiActivity, midi: parts.midi, midiReport: parts.midiReport,
                              timecode: timecode)
    }

    /// Activates, connects, takes frame 0 (telling `onStart` its wall-clock time), runs the
    /// main loop and ends the audio; returns how it ended. `onActivated` runs right after
    /// `jack_activate`, once the turn's threads exist (to let signals in on this thread).
    func run(_ ui: RunFrontEnd, control: RunControl, onActivated: () -> Void,
             onStart: (WallClockTime) -> Void) -> ClientRunEnd {
        notifications.install()
        latencyWatch.install()
        let context = Unmanaged.passUnretained(engine).toOpaque()
        parts.files?.setOrigin(start: nil, timelineBase: timelineBase, timecode: timecode)
        parts.observer.beginConnection(timelineBase: timelineBase)
        do throws(JackError) {
            try client.setProcessCallback(RealtimeEngine.processCallback, context: context)
            timecode?.start()
            writer?.start()
            try client.activate()
            client.nameProcessThread("jackwave-rt")
            onActivated()
        } catch {
            ui.error(Phrase(verbatim: error.message))
            writer?.requestStop(.drainThenStop)
            _ = writer?.wait(timeout: 5)
            _ = timecode?.stop(timeout: TimecodeFollower.endSeconds)
            return ClientRunEnd(ending: .activationFailed, handledInterrupts: 0, silentInputs: [])
        }
        for failure in ports.plan.connect(client) + ports.midiPlan.connect(client) + ports.ltcPlan.connect(client) {
            ui.say(Phrase(verbatim: failure))
        }
        waitForConnections()
        // Frame 0 already takes what our own outputs play, not only once the connection's
        // notification has come round.
        for (from, to) in ports.plan.pairs {
            Self.ownConnection(engine.ownOutputFeeds, inputs: inputNames, outputs: outputNames, from: from, to: to, connected: true)
        }
        for input in ports.plan.unconnectedInputs { ui.say("\(input) is not connected: it records silence until you connect it") }
        for input in ports.midiPlan.unconnectedInputs { ui.say("\(input) is not connected (no physical MIDI capture port for it): connect a MIDI source to record it") }
        reconnector.begin()
        // What the sources declare, read before frame 0: the files' stamp subtracts it.
        let latency = parts.latency.started(InputLatencies(names: ports.inputs.map(\.shortName), ranges: latencyWatch.read()))
        if let line = latency.line { ui.say(Phrase(verbatim: line)) }
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
        } + ports.midiPlan.pairs.compactMap { source, destination in
            ports.midiInputs.first { $0.fullName == destination }.map { (source, $0) }
        } + ports.ltcPlan.pairs.compactMap { source, _ in ports.ltcInput.map { (source, $0) } }
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
}
