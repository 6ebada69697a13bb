import JackwaveVocabulary
import FoundationEssentials
import Glibc
import JackwaveEngine
import JackwaveHost
import JackwaveMeasure
import JackwaveRunSupport
import JackwaveSoundFiles

/// `jackwave measure`: plays a measurement programme on its outputs, records its inputs
/// meanwhile, and reports what lies between them: latency, response, harmonics, THD+N,
/// noise and dynamic range, crosstalk.
///
/// Order, as for a recording: every check that can fail as bad usage (the options, the
/// output files, the ports, the server's rate) runs before anything is played; the programme
/// is computed and the engine built before `jack_activate`; the analysis runs after the
/// client is deactivated, off the audio thread; the files are written last.
enum MeasureCommand {
    /// The parsed command line.
    struct Options: Equatable {
        var channels: Int?
        var portPatterns: [String] = []
        var toPatterns: [String] = []
        var settings = MeasurementSettings()
        var jsonPath: String?
        var plotPath: String?
        var force = false
        var clientName = "jackwave"
        var server: String?
    }

    static func run(_ arguments: [String]) -> Int32 {
        var o: Options
        let opening = commandLine.open(arguments) { () throws(UsageError) in
            let o = try parse(arguments)
            for (path, option) in [(o.jsonPath, Setting.json), (o.plotPath, Setting.plot)] {
                if let path, path != "-" { try OutputPath.check(path, force: o.force, option: option) }
            }
            return o
        }
        switch opening {
        case let .exit(status): return status
        case let .proceed(options): o = options
        }
        do throws(MeasureError) {
            try FFTW.load()
        } catch {
            Console.error("measure: \(error.message)")
            return 1
        }
        JackClient.silenceLibraryMessages()
        let client: JackClient
        do throws(JackError) {
            client = try JackClient(name: o.clientName, server: o.server)
        } catch {
            Console.error(error.message)
            return 1
        }
        let wiring: MeasureWiring
        do {
            wiring = try MeasureWiring(o, client: client)
            try check(o.settings, sampleRate: client.sampleRate)
        } catch let error as UsageError {
            Console.error(error.message)
            return close(client, code: 2)
        } catch let error as JackError {
            Console.error(error.message)
            return close(client, code: 1)
        } catch {
            Console.error("\(error)")
            return close(client, code: 1)
        }
        o.settings.channels = wiring.channels
        let plan = MeasurementPlan(settings: o.settings, sampleRate: Double(client.sampleRate))
        Console.say("measuring \(wiring.channels) channel\(wiring.channels == 1 ? "" : "s") at \(client.sampleRate) Hz for "
                    + String(printf: "%.1f s", plan.seconds))
        for line in wiring.lines { Console.say(line) }
        let session = MeasureSession(client: client, inputs: wiring.inputs, outputs: wiring.outputs, plan: wiring.plan,
                                     programme: plan.programme())
        let captured: MeasureCapture
        let validate = { (inputs: [[Float]]) -> String? in
            CaptureCheck.lostCycle(in: inputs).map { lost in
                "input \(lost.input + 1) holds \(lost.frames) frames of digital silence at "
                    + String(printf: "%.3f s", Double(lost.frame) / plan.sampleRate) + " amid the signal (a cycle lost on the way)"
            }
        }
        switch session.capture(validate: validate, say: { Console.say($0) }) {
        case let .failure(error):
            Console.error(error.message)
            return withExtendedLifetime(session) { close(client, code: 1) }
        case let .success(capture): captured = capture
        }
        // Deactivated: the analysis and the files come before the client is closed (closing
        // may hang in libjack, and then jackwave leaves at once); the engine stays alive until
        // then, as JACK may call into it until `jack_client_close` returns.
        let code: Int32
        do throws(MeasureError) {
            let result = try MeasurementAnalysis.analyze(captured.inputs, plan: plan)
            let report = MeasureReport(result: result, plan: plan, capture: captured, ports: wiring.ports, date: WallClockTime.now())
            code = finish(report, o)
        } catch {
            Console.error("measure: \(error.message)")
            code = 1
        }
        return withExtendedLifetime(session) { close(client, code: code) }
    }

    /// Says and writes the report: the table on stdout (unless the JSON goes there), the
    /// JSON and the picture. 0, or 1 when something could not be written, a path gave nothing
    /// back, or every attempt was disturbed.
    static func finish(_ report: MeasureReport, _ o: Options) -> Int32 {
        var code: Int32 = 0
        if o.jsonPath != "-" && !Console.write(report.text(), to: 1) { code = 1 }
        if let path = o.jsonPath {
            if path == "-" {
                if !Console.write(report.json(), to: 1) { code = 1 }
            } else if let failure = ReportFile.write(report.json(), to: path, force: o.force) {
                Console.error("--json \(path): \(failure)")
                code = 1
            }
        }
        if let path = o.plotPath {
            if let failure = report.plot(to: path, force: o.force) {
                Console.error("--plot: \(failure)")
                code = 1
            } else {
                Console.say("plot: \(path)")
            }
        }
        for problem in report.result.problems {
            Console.error(problem)
            code = 1
        }
        if let disturbance = report.capture.disturbance {
            Console.error("\(disturbance), in each of \(report.capture.attempts) attempts: the figures are unreliable")
            code = 1
        }
        return code
    }

    /// `jack_client_close` with a watchdog (libjack can hang in it; see `JackClient.close`),
    /// passing the exit code on; a client that would not close leaves without exit handlers.
    static func close(_ client: JackClient, code: Int32) -> Int32 {
        if !client.close(timeout: 2) {
            Console.say("libjack did not close the client within 2 s; exiting anyway")
            _exit(code)
        }
        return code
    }

    /// Refuses settings the server's rate cannot serve.
    static func check(_ settings: MeasurementSettings, sampleRate: Int) throws(UsageError) {
        guard sampleRate >= 8000 else { throw UsageError("measure: the server runs at \(sampleRate) Hz; measuring needs at least 8000 Hz") }
        let top = AnalysisBand(sampleRate: Double(sampleRate)).reportTop
        if settings.toneFrequency > top {
            throw UsageError("--frequency \(settings.toneFrequency.plainText) Hz is above the measured band's top at \(sampleRate) Hz (\(top.plainText) Hz)")
        }
    }
}
