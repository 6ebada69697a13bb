import Foundation
import JackwaveTestSupport
import Testing

/// Level export and the live meter against real servers, jackd and PipeWire (each test on
/// both): one server, one test at a time.
@Suite("Levels through a real JACK server", .serialized)
struct LevelsEndToEndTests {
    let dir = temporaryDirectory()

    /// `jackwave levels` (offline) on `recording`, in blocks of `server`'s period, output as text.
    func offline(_ recording: String, _ extra: [String], server: any TestServer) throws -> String {
        let run = try Run.jackwave(["levels", recording, "--block", "\(server.period)"] + extra, server: nil)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout
    }

    @Test("live --levels CSV while recording equals the offline levels of the recording, byte for byte", arguments: ServerKind.allCases)
    func liveEqualsOfflineCSV(on kind: ServerKind) throws {
        let server = try kind.start()
        let wav = dir + "/x.wav", csv = dir + "/x.csv"
        let run = try Run.jackwave(["--tone", "1000", "--record", wav, "--port", "jackwave:out_1", "--channels", "1",
                                    "--duration", "2", "--levels", csv], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let live = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(live == (try offline(wav, [], server: server)))

        let lines = live.split(separator: "\n")
        #expect(lines.first == "frame,time,dropouts,in_1")
        #expect(lines.count == 1 + 96000 / server.period)
        // Rows are consecutive blocks, and the tone (-20 dBFS) is there.
        let frames = try lines.dropFirst().map { line in try #require(line.split(separator: ",").first.flatMap { Int($0) }, "\(line)") }
        #expect(frames == Array(stride(from: 0, to: 96000, by: server.period)))
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",").element(at: 2) == "0" }, "no dropout in a recording of the tone")
        let peaks = try lines.dropFirst().map { line in try #require(line.split(separator: ",").element(at: 3).flatMap { Float($0) }, "\(line)") }
        #expect(abs((peaks.max() ?? 0) - 0.1) < 1e-3)
    }

    @Test("live JSON Lines on stdout with --level-interval equal the offline ones and parse", arguments: ServerKind.allCases)
    func liveEqualsOfflineJSONLines(on kind: ServerKind) throws {
        let server = try kind.start()
        let wav = dir + "/y.wav"
        let run = try Run.jackwave(["--tone", "440", "--record", wav, "--port", "jackwave:out_1", "--channels", "2",
                                    "--duration", "1", "--levels", "-", "--levels-format", "jsonl",
                                    "--level-interval", "10"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == (try offline(wav, ["--level-interval", "10", "--levels-format", "jsonl"], server: server)))
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 100)   // 48000 frames in intervals of 480
        for (i, line) in lines.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((object["frame"] as? NSNumber)?.intValue == i * 480)
            #expect((object["peak"] as? [NSNumber])?.count == 2)
        }
    }

    /// Screen rows drawn only with block elements (the waveform strip), at least 10 wide.
    func stripRows(_ screen: String) -> Int {
        let blocks = Set("▁▂▃▄▅▆▇█▔▀")
        return screen.split(separator: "\n").filter { line in
            let ink = line.filter { $0 != " " }
            return ink.count >= 10 && ink.allSatisfy(blocks.contains)
        }.count
    }

    @Test("a reader that goes away ends the run with exit 1 and one line saying so", arguments: ServerKind.allCases)
    func closedPipe(on kind: ServerKind) throws {
        let server = try kind.start()
        // A run that ignored the closed pipe would last its whole 60 s (counted in frames);
        // one that stops at once ends well within 30 s even on a loaded machine.
        let script = "\"$0\" --levels - --no-meter --channels 1 --duration 60 | head -c 20 >/dev/null; "
            + "echo \"status=${PIPESTATUS[0]}\""
        let started = Date()
        let run = try Run.tool("/bin/bash", ["-c", script, Run.jackwave], server: server.name, timeout: 90)
        #expect(run.stdout.contains("status=1"), "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("levels: writing stdout failed: Broken pipe"), "\(run.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test("the meter draws bars and the strip in a real terminal, and Ctrl-C leaves the cursor shown",
          .enabled(if: TmuxPane.available), arguments: ServerKind.allCases)
    func meterInTmux(on kind: ServerKind) throws {
        let server = try kind.start()
        let pane = try TmuxPane(jackwave: ["--tone", "440", "--port", "jackwave:out_1", "--channels", "1"], server: server)
        let screen = try pane.waitForScreen { $0.contains("in_1 ██") && $0.contains("-20.0 dB") && stripRows($0) == 4 }
        #expect(screen.contains("in_1 ██"), "\(screen)")
        #expect(screen.contains("jackwave:out_1"))
        #expect(screen.contains("-20.0 dB"))
        #expect(stripRows(screen) == 4, "strip missing: \(screen)")
        #expect(try !pane.cursorShown())

        try pane.send("C-c")
        #expect(try pane.waitForScreen { $0.contains("played 440 Hz") }.contains("played 440 Hz"))
        #expect(try pane.cursorShown())
    }
}
