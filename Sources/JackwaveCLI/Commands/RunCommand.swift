import FoundationEssentials
import Glibc
import JackwaveDSP
import JackwaveHost
import JackwaveLevelStream
import JackwaveSoundFiles

/// The main command: record, play a tone, meter and export levels, in one JACK client.
///
/// Order matters and is the point of this type: every check that can fail as a usage error
/// runs before any file is created; everything the realtime callback touches is built
/// before `jack_activate`; the run starts only after the ports are connected.
public enum RunCommand {
    public static func run(_ o: RunOptions) -> Int32 {
        if o.listFormats {
            Console.writeOut(FormatCatalog.lines().joined(separator: "\n") + "\n")
            return 0
        }
        SignalTrap.install()
        // 1. Files: everything that can be checked without JACK.
        let recordFormat: SoundFormat?
        do throws(UsageError) {
            recordFormat = try checkOutputs(o)
            try checkEvents(o)
        } catch {
            Console.error(error.message)
            return 2
        }
        // Before any file: a port that cannot be bound stops the run here (exit 1).
        var remote: RemoteControl?
        if let binding = o.osc {
            do throws(OscListenerError) {
                remote = try startRemoteControl(binding, allowing: OscAllowList(o.oscAllow))
            } catch {
                Console.error("--osc: \(error.message)")
                return 1
            }
            if !binding.isLoopbackOnly && o.oscAllow.isEmpty {
                Console.say("OSC on \(binding) admits only this machine's own senders: --osc-allow CIDR admits others")
            }
        }

        // 2. JACK: client and ports; port patterns need the ports to exist.
        let client: JackClient
        JackClient.silenceLibraryMessages()
        do throws(JackError) {
            client = try JackClient(name: o.clientName, server: o.server)
        } catch {
            Console.error(error.message)
            return 1
        }
        if o.reconnect { return runReconnecting(o, client: client, recordFormat: recordFormat, remote: remote) }
        let code: Int32
        switch prepare(o, client: client, recordFormat: recordFormat) {
        case let .refused(exitCode):
            code = exitCode
        case let .ready(run, frontEnd):
            let (opened, observer) = openObserver(o, remote: remote)
            guard opened else { return withExtendedLifetime(run) { close(client, code: 1) } }
            run.observer = observer
            var result = run.run(frontEnd, onActivated: SignalTrap.receiveOnMainThread)
            finishObserver(observer, code: result, run: run)
            if result == 0, let plot = o.plotPath, let path = o.recordPath {
                result = PlotHook.plotAfterRecording(recording: path, output: plot)
            }
            code = result
            // The run (engine, notifications) stays alive until the client is closed:
            // JACK may call into it until `jack_client_close` returns.
            return withExtendedLifetime(run) { close(client, code: code) }
        }
        return close(client, code: code)
    }

    /// What `prepare` made of the options: a run ready to start, or an exit code.
    enum Prepared {
        case ready(JackRun, TerminalFrontEnd)
        case refused(Int32)
    }

    /// Closes the client (with a watchdog) and passes the exit code on.
    static func close(_ client: JackClient, code: Int32) -> Int32 {
        if !client.close(timeout: 2) {
            // Leave without running exit handlers: libjack's own could wait on the same lock.
            Console.say("libjack did not close the client within 2 s; exiting anyway (the files are complete)")
            _exit(code)
        }
        return code
    }

    /// Steps 2 and 3 with an open client, which the caller closes: ports, connections,
    /// output files, and the session that will run them.
    static func prepare(_ o: RunOptions, client: JackClient, recordFormat: SoundFormat?,
                        continuing: Continuation? = nil) -> Prepared {
        let sampleRate = client.sampleRate
        if let hz = o.toneFrequency, hz >= Double(sampleRate) / 2 {
            Console.error("--tone \(hz.plainText) Hz is not below the Nyquist frequency of the server's \(sampleRate) Hz (\((Double(sampleRate) / 2).plainText) Hz)")
            return .refused(2)
        }

        let plan: ConnectionPlan
        let inputs: [JackPort], outputs: [JackPort]
        do {
            // Outputs first, so that `--port jackwave:out_1` finds them.
            outputs = try o.playsTone
                ? (1...o.outputs).map { i throws(JackError) in try client.registerAudioPort(shortName: "out_\(i)", direction: .output) }
                : []
            let sources = o.manual || o.portPatterns.isEmpty ? [] : try PortPatterns.resolve(
                o.portPatterns, among: client.portNames(direction: .output), what: "source")
            let channels = continuing?.channels ?? (o.wantsInputs ? o.channels ?? (sources.isEmpty ? 2 : sources.count) : 0)
            if sources.count > channels {
                throw UsageError("\(sources.count) source ports match but jackwave has \(channels) inputs (--channels \(channels))")
            }
            let destinations = o.manual || o.toPatterns.isEmpty ? [] : try PortPatterns.resolve(
                o.toPatterns, among: client.portNames(direction: .input), what: "destination")
            inputs = try (0..<channels).map { $0 + 1 }.map { i throws(JackError) in try client.registerAudioPort(shortName: "in_\(i)", direction: .input) }
            plan = ConnectionPlan(client: client, inputs: inputs, outputs: outputs, manual: o.manual,
                                  sources: o.portPatterns.isEmpty ? nil : sources,
                                  destinations: o.toPatterns.isEmpty ? nil : destinations)
        } catch let error as UsageError {
            Console.error(error.message)
            return .refused(2)
        } catch let error as JackError {
            Console.error(error.message)
            return .refused(1)
        } catch {
            Console.error("\(error)")
            return .refused(1)
        }

        // 3. Every check that needs the server's rate and the port count, then (only then)
        // the output files.
        var spec: RecordingSpec?
        let takes: TakeSettings?
        do throws(UsageError) {
            spec = try o.recordPath.map { path throws(UsageError) in
                try recordingSpec(o, path: path, format: recordFormat!, channels: inputs.count,
                                  serverRate: sampleRate, period: client.bufferSize)
            }
            takes = try takeSettings(o, channels: inputs.count, serverRate: sampleRate)
            spec?.alwaysNumbered = o.numbersFiles
            spec?.firstPiece = continuing?.nextPiece ?? 1
        } catch {
            Console.error(error.message)
            return .refused(2)
        }
        let stderrIsTerminal = isatty(2) != 0
        let meter = !inputs.isEmpty && (o.meter ?? stderrIsTerminal)
            ? LiveMeter(names: inputs.map(\.shortName), sampleRate: sampleRate,
                        connections: { inputs.map(\.connections) },
                        loudnessTarget: o.loudness ? o.targetLoudness : nil)
            : nil
        let loudness = o.loudness && !inputs.isEmpty ? LoudnessFeed(channels: inputs.count, sampleRate: sampleRate) : nil
        if o.loudness && !inputs.isEmpty && loudness == nil {
            Console.error("--loudness: libebur128 cannot measure \(inputs.count) channels at \(sampleRate) Hz")
            return .refused(2)
        }
        let levels: LevelPipeline?
        if !inputs.isEmpty && (o.levelsPath != nil || meter != nil) {
            var stream: LevelStreamWriter?
            if let path = o.levelsPath {
                // The CSV's columns are the ports' short names (`in_1`…).
                var formatter = LevelStreamFormatter(format: LevelStreamFormat.forPath(path, explicit: o.levelsFormat),
                                                     sampleRate: sampleRate, channelNames: inputs.map(\.shortName),
                                                     loudness: loudness != nil)
                formatter.takeColumn = o.armed && o.records
                do throws(LevelStreamError) {
                    stream = try LevelStreamWriter(path: path, formatter: formatter, policy: o.force ? .replace : .new)
                } catch {
                    Console.error(error.message)
                    return .refused(1)
                }
            }
            levels = LevelPipeline(channels: inputs.count, sampleRate: sampleRate, stream: stream,
                                   intervalFrames: o.levelIntervalMilliseconds.map {
                                       LevelAggregator.intervalFrames(milliseconds: $0, sampleRate: sampleRate)
                                   },
                                   display: meter)
            levels?.loudness = loudness
        } else {
            levels = nil
        }
        let recording: RecordingPipeline?
        if let spec {
            do throws(RecordingSetupError) {
                recording = try RecordingPipeline(spec: spec)
            } catch {
                Console.error(error.message)
                return .refused(1)
            }
        } else {
            recording = nil
        }

        var settings = RunSettings(
            frameLimit: o.duration.map { Int64(($0 * Double(sampleRate)).rounded()) - (continuing?.receivedFrames ?? 0) },
            tone: o.toneFrequency.map {
                ToneSettings(frequency: $0, amplitude: o.volume, fadeSeconds: o.fadeMilliseconds / 1000)
            },
            bufferSeconds: o.bufferSeconds, printStart: o.printStart, writerStallMicroseconds: testStall())
        settings.takes = takes
        settings.reconnects = o.reconnect
        let run = JackRun(client: client, inputs: inputs, outputs: outputs, recording: recording, plan: plan,
                          levels: levels, settings: settings, loudness: loudness)
        let tone = o.toneFrequency.map {
            ToneParameters(frequency: $0, amplitude: o.volume, nyquist: Double(sampleRate) / 2)
        }
        return .ready(run, TerminalFrontEnd(tone: tone, meter: meter, consumesLevels: levels != nil,
                                            markerKeys: o.records && isatty(0) != 0 && o.meter != false,
                                            readsKeys: o.meter != false))
    }

    /// `JACKWAVE_TEST_WRITER_STALL_US`: a test-only hook that makes the writer sleep before
    /// each pass, to provoke a full ring for real.
    static func testStall() -> UInt32 {
        guard let text = ProcessInfo.processInfo.environment["JACKWAVE_TEST_WRITER_STALL_US"] else { return 0 }
        return UInt32(text) ?? 0
    }

    /// Checks every output path and returns the recording's format.
    static func checkOutputs(_ o: RunOptions) throws(UsageError) -> SoundFormat? {
        var recordFormat: SoundFormat?
        if let path = o.recordPath {
            let format = try usage { () throws(FileChoiceError) in
                try FileChoice.format(for: path, named: o.format, depth: o.depth, rate: o.fileRate)
            }
            if o.armed {
                try checkTakePaths(path, force: o.force)
            } else if o.numbersFiles {
                // Pieces are take-001.wav, take-002.wav, …: refuse if any such name exists.
                try OutputPath.check(SplitNaming.path(path, piece: 1), force: o.force, option: "--record")
                if let existing = SplitNaming.existingPieces(of: path).first, !o.force {
                    throw UsageError("--record \(path) --split: \(existing) exists (use --force to overwrite the pieces)")
                }
            } else {
                try OutputPath.check(path, force: o.force, option: "--record")
            }
            recordFormat = format
        }
        if let path = o.levelsPath, path != "-" {
            try OutputPath.check(path, force: o.force, option: "--levels")
        }
        if let path = o.plotPath {
            guard ["png", "svg"].contains(FileNames.lowercasedExtension(path)) else {
                throw UsageError("--plot \(path): unknown extension (use .png or .svg)")
            }
            try OutputPath.check(path, force: o.force, option: "--plot")
        }
        // Two options naming one file (`take.wav` and `./take.wav`) would write over each other.
        let named = [("--record", o.recordPath), ("--levels", o.levelsPath == "-" ? nil : o.levelsPath),
                     ("--plot", o.plotPath)].compactMap { option, path in path.map { (option, $0, OutputPath.canonical($0)) } }
        for (i, a) in named.enumerated() {
            for b in named[(i + 1)...] where a.2 == b.2 {
                throw UsageError("\(a.0) and \(b.0) name the same file (\(a.1))")
            }
        }
        return recordFormat
    }

    /// The recording's files, now that the server's rate and the channels are known.
    static func recordingSpec(_ o: RunOptions, path: String, format: SoundFormat, channels: Int,
                              serverRate: Int, period: Int) throws(UsageError) -> RecordingSpec {
        let rate = o.fileRate ?? serverRate
        let split = try usage { () throws(FileChoiceError) -> Int64? in
            try FileChoice.checkRate(rate, format: format, given: o.fileRate != nil)
            return try o.splitSeconds.map { seconds throws(FileChoiceError) in try FileChoice.splitFrames(seconds, rate: rate) }
        }
        if let word = format.formatWord(depth: o.depth),
           !SoundFile.canWrite(format: word, channels: channels, sampleRate: rate) {
            throw UsageError("--record \(path): libsndfile cannot write this format with \(channels) channels at \(rate) Hz")
        }
        try checkBuffer(o.bufferSeconds, channels: channels, serverRate: serverRate, period: period)
        var spec = RecordingSpec(path: path, format: format, depth: o.depth, channels: channels, inputRate: serverRate,
                                 fileRate: rate, dither: o.dither, splitFrames: split)
        spec.takes = o.armed
        spec.replacesFiles = o.force
        return spec
    }

    /// The ring must hold a few periods (a smaller one would drop every block, since blocks
    /// go in whole), and must fit in memory (it is mapped and locked up front).
    static func checkBuffer(_ seconds: Double, channels: Int, serverRate: Int, period: Int) throws(UsageError) {
        let frames = Int(seconds * Double(serverRate))
        let minimum = 4 * max(period, 1)
        if frames < minimum {
            throw UsageError("--buffer \(seconds.plainText) s holds \(frames) frames; this server's period needs at least \(minimum) (\(String(printf: "%.3f", Double(minimum) / Double(serverRate))) s)")
        }
        let bytes = Double(frames) * Double(channels) * Double(MemoryLayout<Float>.stride)
        let memory = Double(sysconf(Int32(_SC_PHYS_PAGES))) * Double(sysconf(Int32(_SC_PAGESIZE)))
        if bytes > memory / 2 {
            throw UsageError("--buffer \(seconds.plainText) s × \(channels) channels needs \(String(printf: "%.1f", bytes / 1e9)) GB, more than half of this machine's memory")
        }
    }

    /// A file check's failure as a usage error (exit code 2).
    private static func usage<T>(_ check: () throws(FileChoiceError) -> T) throws(UsageError) -> T {
        do throws(FileChoiceError) { return try check() } catch { throw UsageError(error.message) }
    }
}
