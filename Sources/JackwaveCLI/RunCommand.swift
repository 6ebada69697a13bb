import CJack
import Foundation
import JackwaveDSP
import JackwaveHost

/// The main command: record, play a tone, meter and export levels, in one JACK client.
///
/// Order matters and is the point of this type: every check that can fail as a usage error
/// runs before any file is created; everything the realtime callback touches is built
/// before `jack_activate`; the run starts only after the ports are connected.
public enum RunCommand {
    /// Main-loop period: 20 ms checks stop conditions well within a second and redraws
    /// the meter at 25 frames a second, while sleeping almost all the time.
    static let tick: UInt32 = 20_000

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
        } catch {
            Console.error(error.message)
            return 2
        }

        // 2. JACK: client and ports; port patterns need the ports to exist.
        let client: JackClient
        do throws(JackError) {
            client = try JackClient(name: o.clientName, server: o.server)
        } catch {
            Console.error(error.message)
            return 1
        }
        let code = run(o, client: client, recordFormat: recordFormat)
        if !client.close(timeout: 2) {
            // Leave without running exit handlers: libjack's own could wait on the same lock.
            Console.say("libjack did not close the client within 2 s; exiting anyway (the files are complete)")
            _exit(code)
        }
        return code
    }

    /// Steps 2 to 4 with an open client, which the caller closes.
    static func run(_ o: RunOptions, client: JackClient, recordFormat: SoundFormat?) -> Int32 {
        let sampleRate = client.sampleRate
        if let hz = o.toneFrequency, hz >= Double(sampleRate) / 2 {
            Console.error("--tone \(format(hz)) Hz is not below the Nyquist frequency of the server's \(sampleRate) Hz (\(format(Double(sampleRate) / 2)) Hz)")
            return 2
        }

        let plan: ConnectionPlan
        let inputs: [OpaquePointer], outputs: [OpaquePointer]
        do {
            // Outputs first, so that `--port jackwave:out_1` finds them.
            outputs = try o.playsTone
                ? (1...o.outputs).map { i throws(JackError) in try client.registerAudioPort(shortName: "out_\(i)", isInput: false) }
                : []
            let sources = o.manual || o.portPatterns.isEmpty ? [] : try PortPatterns.resolve(
                o.portPatterns, among: client.portNames(flags: JackPortIsOutput), what: "source")
            let channels = o.wantsInputs ? o.channels ?? (sources.isEmpty ? 2 : sources.count) : 0
            if sources.count > channels {
                throw UsageError("\(sources.count) source ports match but jackwave has \(channels) inputs (--channels \(channels))")
            }
            let destinations = o.manual || o.toPatterns.isEmpty ? [] : try PortPatterns.resolve(
                o.toPatterns, among: client.portNames(flags: JackPortIsInput), what: "destination")
            inputs = try (0..<channels).map { $0 + 1 }.map { i throws(JackError) in try client.registerAudioPort(shortName: "in_\(i)", isInput: true) }
            plan = ConnectionPlan(options: o, client: client, inputs: inputs, outputs: outputs,
                                  sources: sources, destinations: destinations)
        } catch let error as UsageError {
            Console.error(error.message)
            return 2
        } catch let error as JackError {
            Console.error(error.message)
            return 1
        } catch {
            Console.error("\(error)")
            return 1
        }

        // 3. The output files, now that the sample rate and ports are known.
        let levels: LevelPipeline?
        if !inputs.isEmpty && LevelPipeline.wanted(o, stderrIsTerminal: isatty(2) != 0) {
            do throws(LevelStreamError) {
                levels = try LevelPipeline(options: o, sampleRate: sampleRate,
                                           inputNames: inputs.map { JackClient.shortName(of: $0) },
                                           connections: { inputs.map(JackClient.connections(of:)) },
                                           stderrIsTerminal: isatty(2) != 0)
            } catch {
                Console.error(error.message)
                return 1
            }
        } else {
            levels = nil
        }
        let recording: RecordingPipeline?
        if let path = o.recordPath, let format = recordFormat {
            let spec: RecordingSpec
            do throws(UsageError) {
                spec = try recordingSpec(o, path: path, format: format, channels: inputs.count, serverRate: sampleRate)
            } catch {
                Console.error(error.message)
                return 2
            }
            do throws(RecordingSetupError) {
                recording = try RecordingPipeline(spec: spec)
            } catch {
                Console.error(error.message)
                return 1
            }
        } else {
            recording = nil
        }

        let session = Session(options: o, client: client, inputs: inputs, outputs: outputs,
                              sampleRate: sampleRate, recording: recording, plan: plan, levels: levels)
        return session.run()
    }

    /// Checks every output path and returns the recording's format.
    static func checkOutputs(_ o: RunOptions) throws(UsageError) -> SoundFormat? {
        var recordFormat: SoundFormat?
        if let path = o.recordPath {
            let format = try usage { () throws(FileChoiceError) in
                try FileChoice.format(for: path, named: o.format, depth: o.depth, rate: o.fileRate)
            }
            if o.splitSeconds != nil {
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
            guard ["png", "svg"].contains(OutputPath.fileExtension(path)) else {
                throw UsageError("--plot \(path): unknown extension (use .png or .svg)")
            }
            try OutputPath.check(path, force: o.force, option: "--plot")
        }
        return recordFormat
    }

    /// The recording's files, now that the server's rate and the channels are known.
    static func recordingSpec(_ o: RunOptions, path: String, format: SoundFormat, channels: Int,
                              serverRate: Int) throws(UsageError) -> RecordingSpec {
        let rate = o.fileRate ?? serverRate
        let split = try usage { () throws(FileChoiceError) -> Int64? in
            try FileChoice.checkRate(rate, format: format, given: o.fileRate != nil)
            return try o.splitSeconds.map { seconds throws(FileChoiceError) in try FileChoice.splitFrames(seconds, rate: rate) }
        }
        return RecordingSpec(path: path, format: format, depth: o.depth, channels: channels, inputRate: serverRate,
                             fileRate: rate, dither: o.dither, splitFrames: split)
    }

    /// A file check's failure as a usage error (exit code 2).
    private static func usage<T>(_ check: () throws(FileChoiceError) -> T) throws(UsageError) -> T {
        do throws(FileChoiceError) { return try check() } catch { throw UsageError(error.message) }
    }
}
