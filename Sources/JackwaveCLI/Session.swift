import Foundation
import JackwaveDSP
import JackwaveHost

/// One run of the main command, from activation to the summary line.
final class Session {
    /// Why a run ended.
    enum Ending: Equatable {
        case finished, interrupted, serverGone, sampleRateChanged, writeFailed(String), levelsFailed(String)
        var exitCode: Int32 {
            switch self {
            case .finished, .interrupted: 0
            default: 1
            }
        }
    }

    let options: RunOptions
    let client: JackClient
    let sampleRate: Int
    let signals = EngineSignals()
    let messages = MessageQueue()
    let engine: RealtimeEngine
    let notifications: JackNotifications
    let writer: RecordingWriter?
    let recording: RecordingPipeline?
    /// Wall-clock time of frame 0, once the run has started.
    private var startTime: WallClockTime?
    let plan: ConnectionPlan
    let levels: LevelPipeline?
    /// The tone's status line when there is a keyboard to change it and no meter to show it.
    private var toneStatus: ToneStatusLine?

    init(options o: RunOptions, client: JackClient, inputs: [OpaquePointer], outputs: [OpaquePointer],
         sampleRate: Int, recording: RecordingPipeline?, plan: ConnectionPlan, levels: LevelPipeline?) {
        options = o
        self.client = client
        self.sampleRate = sampleRate
        self.recording = recording
        self.plan = plan
        self.levels = levels
        let frameLimit = o.duration.map { Int64(($0 * Double(sampleRate)).rounded()) }
        let tone = o.toneFrequency.map {
            ToneSettings(frequency: $0, amplitude: o.volume, fadeSeconds: o.fadeMilliseconds / 1000)
        }
        // The level ring holds 2 s of blocks at the smallest period JACK allows (16 frames),
        // so a busy main thread (a slow terminal) never loses levels.
        let levelBlocks = levels == nil ? 0 : 2 * sampleRate / 16
        let configuration = EngineConfiguration(
            inputs: inputs.count, outputs: outputs.count,
            audioRingFrames: recording == nil ? 0 : Int(o.bufferSeconds * Double(sampleRate)),
            levelRingBlocks: levelBlocks, frameLimit: frameLimit, tone: tone)
        RealtimeEngine.warmUp(like: configuration, sampleRate: sampleRate)
        engine = RealtimeEngine(configuration: configuration, inputs: inputs, outputs: outputs,
                                sampleRate: sampleRate, signals: signals)
        notifications = JackNotifications(client: client, signals: signals, messages: messages)
        if let recording, let ring = engine.audioRing {
            writer = RecordingWriter(pipeline: recording, ring: ring, drops: engine.dropRing, messages: messages,
                                     stallMicroseconds: Session.testStall())
        } else {
            writer = nil
        }
    }

    /// Runs to the end and returns the exit code.
    func run() -> Int32 {
        notifications.install()
        let context = Unmanaged.passUnretained(engine).toOpaque()
        do throws(JackError) {
            try client.setProcessCallback(RealtimeEngine.processCallback, context: context)
            writer?.start()
            try client.activate()
            client.nameProcessThread("jackwave-rt")
            SignalTrap.receiveOnMainThread()
        } catch {
            Console.error(error.message)
            writer?.requestStop(.drainThenStop)
            _ = writer?.wait(timeout: 5)
            return 1
        }
        for failure in plan.connect(client) { Console.say(failure) }
        for input in plan.unconnectedInputs { Console.say("\(input) is not connected: it records silence until you connect it") }
        // Frame 0 is the first cycle that sees this store: the clock is read just before it.
        // That cycle starts within a period, and its buffer was captured during the period
        // before it, so the time is right to about one period (plus capture latency).
        let start = WallClockTime.now()
        startTime = start
        writer?.setStart(start)
        // The connections above are complete (jack_connect waits for the server), so the
        // first cycle that sees this store already hears them. `.releasing`: see EngineSignals.
        signals.started.store(true, ordering: .releasing)
        if options.printStart { Console.say("first frame at \(start.iso8601)") }

        let (ending, handledInterrupts) = mainLoop()
        return finish(ending, handledInterrupts: handledInterrupts)
    }

    /// Polls stop conditions and feeds the level consumers until the run ends; returns why,
    /// and how many interrupts it has acted on (so that `finish` sees any later one).
    private func mainLoop() -> (Ending, Int) {
        var handledInterrupts = 0
        var toneFadingSince: Date?
        let startTime = Date()
        let keyboard = options.playsTone ? KeyboardInput() : nil
        defer { keyboard?.restore() }
        var tone = ToneParameters(frequency: options.toneFrequency ?? 0, amplitude: options.volume,
                                  nyquist: Double(sampleRate) / 2)
        if keyboard != nil && levels == nil && isatty(2) != 0 {
            toneStatus = ToneStatusLine()
            toneStatus?.show(tone.description)
        }
        let tick = levels != nil || keyboard != nil ? RunCommand.tick : RunCommand.quietTick
        while true {
            usleep(tick)
            flushMessages()
            if let keyboard, toneFadingSince == nil {
                var quit = false
                let before = tone
                for key in ToneKeyParser.parse(keyboard.read()) {
                    if key == .quit { quit = true } else { tone.apply(key) }
                }
                if tone != before {
                    // Each is an independent value the callback polls (relaxed).
                    signals.toneFrequencyBits.store(tone.frequency.bitPattern, ordering: .relaxed)
                    signals.toneAmplitudeBits.store(tone.amplitude.bitPattern, ordering: .relaxed)
                    signals.tonePaused.store(tone.paused, ordering: .relaxed)
                    if let toneStatus { toneStatus.show(tone.description) }
                    else if levels == nil { Console.say("tone \(tone.description)") }
                }
                if quit {
                    signals.toneStopRequested.store(true, ordering: .relaxed)
                    toneFadingSince = Date()
                }
            }
            if let failure = levels?.drain(engine) { return (.levelsFailed(failure), handledInterrupts) }
            if let levels { levels.tick(status: status(since: startTime)) }
            // `.acquiring`: the shutdown callback copied the reason before its store.
            if signals.serverGone.load(ordering: .acquiring) {
                messages.post(notifications.shutdownLine)
                return (.serverGone, handledInterrupts)
            }
            if signals.sampleRateChanged.load(ordering: .relaxed) { return (.sampleRateChanged, handledInterrupts) }
            if let writer, writer.failed.load(ordering: .relaxed) { return (.writeFailed(writer.failure ?? "write failed"), handledInterrupts) }
            if signals.finished.load(ordering: .relaxed) { return (.finished, handledInterrupts) }
            if options.playsTone && !options.records && options.duration == nil
                && signals.toneFinished.load(ordering: .relaxed) { return (.interrupted, handledInterrupts) }
            let interrupts = SignalTrap.count
            if interrupts > handledInterrupts {
                handledInterrupts = interrupts
                // With a tone, the first Ctrl-C fades it out; the run ends when the fade has.
                if options.playsTone && toneFadingSince == nil && interrupts == 1 {
                    signals.toneStopRequested.store(true, ordering: .relaxed)
                    toneFadingSince = Date()
                } else {
                    return (.interrupted, handledInterrupts)
                }
            }
            if let since = toneFadingSince,
               signals.toneFinished.load(ordering: .relaxed)
                || Date().timeIntervalSince(since) > options.fadeMilliseconds / 1000 + 1 {
                return (.interrupted, handledInterrupts)
            }
        }
    }

    /// Stops JACK, drains the rings, closes the files and prints the summary.
    private func finish(_ ending: Ending, handledInterrupts: Int) -> Int32 {
        let serverAlive = ending != .serverGone
        notifications.quiet(reportingQueued: serverAlive)
        if serverAlive { client.deactivate() }
        engine.publishPendingDrop()
        levels?.drainAndClose(engine)
        toneStatus?.close()
        toneStatus = nil
        var code = ending.exitCode
        if let writer {
            // An interrupt the main loop did not act on (one that came during the fade or
            // while stopping) asks for a stop without draining.
            var handled = handledInterrupts
            var abandoned = false
            if case .interrupted = ending, SignalTrap.count > handled {
                handled = SignalTrap.count
                abandoned = true
            }
            writer.requestStop(abandoned ? .stopNow : .drainThenStop)
            while !writer.wait(timeout: 0.05) {
                if SignalTrap.count > handled {
                    handled = SignalTrap.count
                    abandoned = true
                    writer.requestStop(.stopNow)
                }
                flushMessages()
            }
            if abandoned, let ring = engine.audioRing {
                // The writer has ended: the main thread may read the ring as its consumer now.
                let left = ring.readableCount
                Console.say("stopping without draining the buffer: \(left) frames received were not written")
            }
        }
        // A write that failed while draining, after the run had ended for another reason.
        var lateWriteFailure: String?
        if let writer, writer.failed.load(ordering: .relaxed) {
            if case .writeFailed = ending {} else { lateWriteFailure = writer.failure ?? "write failed" }
        }
        flushMessages()
        switch ending {
        case .serverGone: Console.error("the JACK server went away; the file holds everything received before it did")
        case .sampleRateChanged: Console.error("the JACK server's sample rate changed; stopped (a file has one rate)")
        case let .writeFailed(message): Console.error("\(message); stopped, the file holds everything written before the error")
        case let .levelsFailed(message): Console.error(message)
        default: break
        }
        if let lateWriteFailure {
            Console.error("\(lateWriteFailure); the file holds everything written before the error")
            code = 1
        }
        if let message = levels?.failure, ending != .levelsFailed(message) {
            Console.error(message)
            code = 1
        }
        Console.say(summary())
        if let plot = options.plotPath, let path = options.recordPath, code == 0 {
            code = PlotHook.plotAfterRecording(recording: path, output: plot)
        }
        return code
    }

    /// The status line's figures now.
    private func status(since start: Date) -> StatusSnapshot {
        let fileBytes = options.recordPath.flatMap {
            (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? NSNumber)?.int64Value
        }
        let ringFill = engine.audioRing.map { Double($0.approximateFill) / Double($0.capacity) }
        return StatusSnapshot(
            elapsedSeconds: Date().timeIntervalSince(start), recordPath: options.recordPath, fileBytes: fileBytes,
            ringFill: ringFill, xruns: signals.xruns.load(ordering: .relaxed),
            droppedFrames: signals.droppedFrames.load(ordering: .relaxed),
            toneFrequency: options.playsTone ? Double(bitPattern: signals.toneFrequencyBits.load(ordering: .relaxed)) : nil,
            toneAmplitude: options.playsTone ? Float(bitPattern: signals.toneAmplitudeBits.load(ordering: .relaxed)) : nil,
            tonePaused: signals.tonePaused.load(ordering: .relaxed))
    }

    private func summary() -> String {
        let xruns = signals.xruns.load(ordering: .relaxed)
        let dropped = signals.droppedFrames.load(ordering: .relaxed)
        if let writer, let recording {
            let spec = recording.files.spec
            let frames = writer.framesWritten.load(ordering: .relaxed)
            let seconds = String(format: "%.3f", Double(frames) / Double(spec.fileRate))
            let paths = recording.files.paths
            let names = paths.count > 1 ? "\(paths[0]) … \(paths[paths.count - 1]) (\(paths.count) files)" : paths.first ?? spec.path
            var line = "recorded \(names): \(seconds) s, \(frames) frames, \(counted(engine.configuration.inputs, "channel")), \(xruns) xruns, \(dropped) dropped frames"
            if spec.resamples { line += ", \(spec.fileRate) Hz from the server's \(spec.inputRate) Hz" }
            if let tone = options.toneFrequency { line += ", tone \(format(tone)) Hz" }
            if options.printStart, let startTime { line += ", first frame at \(startTime.iso8601)" }
            return line
        }
        let frames = signals.streamFrames.load(ordering: .relaxed)
        let seconds = String(format: "%.3f", Double(frames) / Double(sampleRate))
        if let tone = options.toneFrequency {
            return "played \(format(tone)) Hz: \(seconds) s, \(counted(engine.configuration.outputs, "output")), \(xruns) xruns"
        }
        return "monitored \(seconds) s, \(counted(engine.configuration.inputs, "channel")), \(xruns) xruns"
    }

    private func flushMessages() {
        if !notifications.isQuiet && !signals.serverGone.load(ordering: .relaxed) { notifications.reportConnections() }
        for line in messages.drain() {
            if let levels { levels.printAboveMeter("jackwave: \(line)") }
            else if let toneStatus { toneStatus.printAbove("jackwave: \(line)") }
            else { Console.say(line) }
        }
    }

    /// `JACKWAVE_TEST_WRITER_STALL_US`: a test-only hook that makes the writer sleep before
    /// each pass, to provoke a full ring for real.
    static func testStall() -> UInt32 {
        guard let text = ProcessInfo.processInfo.environment["JACKWAVE_TEST_WRITER_STALL_US"] else { return 0 }
        return UInt32(text) ?? 0
    }
}

/// "1 channel", "2 channels".
func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
