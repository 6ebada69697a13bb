import Foundation
@testable import JackwaveCLI
import JackwaveEngine
import JackwaveHost
import JackwaveMeasure
import JackwaveRunSupport
import JackwaveSoundFiles
import Testing

@Suite("MeasureCommand")
struct MeasureCommandTests {
    let dir = NSTemporaryDirectory() + "jackwave-measure-\(UUID().uuidString)"

    init() throws { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }

    @Test("the options it parses: levels in dBFS, the tone, the latency allowance, the files")
    func options() throws {
        let o = try MeasureCommand.parse(["-c", "1", "--level", "-12dB", "--frequency", "1000", "--max-latency", "0.1",
                                          "--quick", "-p", "dut:out_1", "-t", "dut:in_1", "--json", "m.json", "--plot", "m.svg"])
        #expect(o.channels == 1 && o.settings.levelDBFS == -12 && o.settings.toneFrequency == 1000)
        #expect(o.settings.maximumLatencySeconds == 0.1 && o.settings.quick)
        #expect(o.portPatterns == ["dut:out_1"] && o.toPatterns == ["dut:in_1"] && o.jsonPath == "m.json" && o.plotPath == "m.svg")
        #expect(try MeasureCommand.parse(["--level", "-3"]).settings.levelDBFS == -3)
        #expect(try MeasureCommand.parse([]).settings == MeasurementSettings())
    }

    @Test("bad usage is one line naming the option", arguments: [
        (["--level", "3"], "--level must be between -60 and 0 dBFS, not 3"),
        (["--level", "loud"], "--level: 'loud' is not a level in dBFS (use -6 or -6dB)"),
        (["--max-latency", "0"], "--max-latency: the latency in seconds must be between 0.01 and 10, not 0"),
        (["-c", "0"], "-c must be between 1 and 32, not 0"),
        (["--plot", "m.jpg"], "--plot m.jpg: unknown extension (use .png or .svg)"),
        (["--json", "m.svg", "--plot", "./m.svg"], "--json and --plot name the same file"),
        (["extra"], "unexpected argument 'extra' (see jackwave measure --help)"),
    ])
    func refusals(arguments: [String], message: String) {
        do throws(UsageError) {
            _ = try MeasureCommand.parse(arguments)
            Issue.record("accepted: no \(message)")
        } catch {
            #expect(error.message.line == message)
        }
    }

    @Test("bad usage exits 2 before any server is asked, and an existing --json is kept without --force")
    func exitsTwo() throws {
        let existing = dir + "/m.json"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: existing))
        #expect(MeasureCommand.run(["--json", existing, "-s", "no-such-server-\(UUID().uuidString)"]) == 2)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep")
        #expect(MeasureCommand.run(["--level", "+1"]) == 2)
        #expect(MeasureCommand.run(["--plot", dir + "/missing/m.png"]) == 2)
    }

    @Test("no server is a runtime failure: exit 1, no file")
    func noServer() {
        let json = dir + "/none.json"
        #expect(MeasureCommand.run(["--json", json, "-s", "no-such-server-\(UUID().uuidString)"]) == 1)
        #expect(!FileManager.default.fileExists(atPath: json))
    }

    @Test("a report file is made with O_EXCL and O_NOFOLLOW: never over a file, never through a link")
    func reportFile() throws {
        let path = dir + "/r.json"
        #expect(ReportFile.write("{}", to: path, force: false) == nil)
        #expect(ReportFile.write("{}", to: path, force: false) != nil)
        #expect(ReportFile.write("{\"a\":1}", to: path, force: true) == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"a\":1}")
        let target = dir + "/target", link = dir + "/link.json"
        try Data("t".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(ReportFile.write("{}", to: link, force: true) != nil)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "t")
    }

    /// A report of a wire (its capture is the programme itself), made without a server.
    static func wireReport(channels: Int) throws -> MeasureReport {
        var settings = MeasurementSettings()
        settings.channels = channels
        settings.quick = true
        settings.maximumLatencySeconds = 0.05
        let plan = MeasurementPlan(settings: settings, sampleRate: 48000)
        let programme = plan.programme()
        let result = try MeasurementAnalysis.analyze(programme, plan: plan)
        let latency = (capture: DeclaredLatency(minimum: 256, maximum: 256), playback: DeclaredLatency(minimum: 512, maximum: 512))
        let capture = MeasureCapture(inputs: programme, declared: Array(repeating: latency, count: channels), xruns: 0,
                                     skippedFrames: 0, disturbance: nil, attempts: 1, sampleRate: 48000, period: 256)
        let ports = (1...channels).map { MeasureReport.Ports(output: "jackwave:out_\($0)", destination: "dut:in_\($0)",
                                                               source: "dut:out_\($0)", input: "jackwave:in_\($0)") }
        return MeasureReport(result: result, plan: plan, capture: capture, ports: ports, date: WallClockTime(seconds: 1_700_000_000, nanoseconds: 0))
    }

    @Test("the JSON holds the keys the issue names, for channel 1 and per channel, and the settings")
    func json() throws {
        let report = try Self.wireReport(channels: 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        for key in ["latency_frames", "declared_latency_frames", "response", "harmonics", "thd_n_db", "noise_db",
                    "dynamic_range_db", "crosstalk_db", "date", "server", "settings", "channels"] {
            #expect(object[key] != nil, "\(key)")
        }
        #expect(object["latency_frames"] as? Double == 0)
        #expect(object["declared_latency_frames"] as? Int == 768)
        #expect(object["excess_latency_frames"] as? Double == -768)
        let server = try #require(object["server"] as? [String: Any])
        #expect(server["sample_rate"] as? Int == 48000 && server["period"] as? Int == 256)
        let response = try #require(object["response"] as? [[String: Double]])
        #expect(response.count == 239 && response.allSatisfy { Set($0.keys) == ["hz", "db", "deg"] && $0["db"] == 0 })
        let crosstalk = try #require(object["crosstalk_db"] as? [[Any]])
        #expect(crosstalk.count == 2 && crosstalk.allSatisfy { $0.allSatisfy { $0 is NSNull } })
        let channels = try #require(object["channels"] as? [[String: Any]])
        #expect(channels.count == 2 && channels[1]["latency_frames"] as? Double == 0)
        let harmonics = try #require(object["harmonics"] as? [[String: Any]])
        #expect(harmonics.map { $0["order"] as? Int } == [2, 3, 4, 5])
        #expect((object["date"] as? String)?.hasPrefix("2023-11-1") == true)
    }

    @Test("the table has a column per channel and a row per figure")
    func text() throws {
        let lines = try Self.wireReport(channels: 2).text().split(separator: "\n").map(String.init)
        #expect(lines.first == "jackwave measure: 48000 Hz, period 256, 2 channels, quick")
        #expect(lines.contains { $0.hasPrefix("latency (frames)") && $0.hasSuffix("      0.000       0.000") })
        #expect(lines.contains { $0.hasPrefix("declared by JACK") && $0.hasSuffix("  768         768") })
        #expect(lines.contains { $0.hasPrefix("crosstalk from 1 (dB)") && $0.hasSuffix("-inf") })
    }

    @Test("the picture is drawn: response, harmonics and impulse lanes")
    func plot() throws {
        let path = dir + "/m.png"
        #expect(try Self.wireReport(channels: 1).plot(to: path, force: false) == nil)
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
