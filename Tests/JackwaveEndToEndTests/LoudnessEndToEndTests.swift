import Foundation
import JackwaveTestSupport
import Testing

/// Live loudness (`--loudness`) against a real `jackd -d dummy`: one server, one test at a
/// time.
@Suite("Live loudness through a real JACK server", .serialized)
struct LoudnessEndToEndTests {
    let server: any TestServer
    let dir = temporaryDirectory()

    init() throws { server = try ServerKind.jackd.start() }

    /// The fields of a CSV level stream's last row, by header name.
    func lastRow(_ csv: String) throws -> [String: Double] {
        let lines = csv.split(separator: "\n")
        let header = try #require(lines.first).split(separator: ",").map(String.init)
        let last = try #require(lines.last).split(separator: ",").map { Double($0) ?? .nan }
        return Dictionary(zip(header, last), uniquingKeysWith: { first, _ in first })   // a repeated name must not trap
    }

    /// `jackwave loudness --json` of one file: its entry in "files".
    func offline(_ path: String) throws -> [String: Any] {
        let run = try Run.jackwave(["loudness", "--json", path], server: nil)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try #require((object["files"] as? [[String: Any]])?.first)
    }

    /// Tolerance for live against offline: both are libebur128 over the very same frames
    /// (the writer hands the analysis what it writes; the file is 32-bit float), so they
    /// differ only by how they are printed: 3 decimals in the offline JSON (±0.0005) and a
    /// `Float` in the stream (±0.00001 at −30). 0.002 LU leaves room for both and nothing else.
    static let sameFramesTolerance = 0.002

    @Test("the live lufs_i, lra and dbtp at the end of a recording equal `jackwave loudness` on that recording")
    func liveEqualsOffline() throws {
        // A loudness that changes: the test source's steady pattern on in_1 throughout, and
        // a second client's tone on in_2 for a second, once the recording runs. (Whether the
        // tone makes it in time on a loaded machine does not matter to what is checked.)
        let source = try server.startTestSource(channels: 1)
        defer { _ = source.finish(timeout: 5) }
        let wav = dir + "/live.wav", csv = dir + "/live.csv"
        let recorder = try Run.start(Run.jackwave, ["-n", "rec", "--record", wav, "--bits", "float", "--channels", "2",
                                                    "--port", "src:out_1", "--duration", "4",
                                                    "--loudness", "--levels", csv, "--level-interval", "100", "--no-meter"],
                                     server: server.name)
        #expect(recorder.waitForStderr("connected src:out_1"))
        let tone = try Run.jackwave(["-n", "tone", "--tone", "500", "--volume", "-12dB", "--to", "rec:in_2",
                                     "--duration", "1", "--no-meter"], server: server.name)
        let run = recorder.finish(timeout: 60)
        #expect(run.status == 0, "\(run.stderr) (tone: \(tone.stderr))")
        let row = try lastRow(try String(contentsOfFile: csv, encoding: .utf8))
        let file = try offline(wav)
        let integrated = try #require((file["integrated_lufs"] as? NSNumber)?.doubleValue)
        let range = try #require((file["loudness_range_lu"] as? NSNumber)?.doubleValue)
        let peaks = try #require((file["true_peak_dbtp_per_channel"] as? [NSNumber])?.map(\.doubleValue))
        #expect(abs(try #require(row["lufs_i"]) - integrated) <= Self.sameFramesTolerance, "\(row) \(file)")
        #expect(abs(try #require(row["lra"]) - range) <= Self.sameFramesTolerance, "\(row) \(file)")
        let peak1 = try #require(peaks.element(at: 0), "\(file)"), peak2 = try #require(peaks.element(at: 1), "\(file)")
        #expect(abs(try #require(row["dbtp_in_1"]) - peak1) <= Self.sameFramesTolerance)
        #expect(abs(try #require(row["dbtp_in_2"]) - peak2) <= Self.sameFramesTolerance)
        #expect(run.stderr.contains(String(format: "loudness: I %.1f LUFS", integrated)), "\(run.stderr)")
    }

    @Test("metering only, the stream's last row gives a −20 dBFS stereo tone as −20 LUFS, and rows come every 100 ms")
    func meteringOnly() throws {
        // The tone plays until the meter has had its two seconds, however long it takes to start.
        let tone = try Run.start(Run.jackwave, ["-n", "tone", "--tone", "1000", "--volume", "-20dB", "--no-meter"],
                                 server: server.name)
        defer { tone.signal(SIGTERM); _ = tone.finish(timeout: 10) }
        #expect(tone.waitForStderr("connected"))
        let run = try Run.jackwave(["-n", "meter", "--port", "tone:out_*", "--duration", "2", "--loudness",
                                    "--levels", "-", "--level-interval", "100", "--no-meter"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        // Metering with --loudness: the writer sees the audio, so dropouts are counted too.
        #expect(lines.first == "frame,time,dropouts,in_1,in_2,lufs_m,lufs_s,lufs_i,lra,dbtp_in_1,dbtp_in_2")
        #expect(lines.count == 1 + 20)
        let row = try lastRow(run.stdout)
        // BS.1770: a 1 kHz sine at −20 dBFS in both channels of a stereo pair reads −20 LUFS
        // (EBU Tech 3341 case 1 is the same at −23); ±0.1 LU is the EBU's tolerance.
        #expect(abs(try #require(row["lufs_i"]) - -20) <= 0.1, "\(row)")
        #expect(abs(try #require(row["lufs_m"]) - -20) <= 0.1, "\(row)")
        #expect(abs(try #require(row["dbtp_in_1"]) - -20) <= 0.2, "\(row)")
    }

    @Test("JSON Lines rows carry lufs_m, lufs_s, lufs_i, lra and a dbtp array per port")
    func jsonLines() throws {
        let run = try Run.jackwave(["-n", "meter", "--channels", "1", "--duration", "1", "--loudness",
                                    "--levels", "-", "--levels-format", "jsonl", "--level-interval", "500", "--no-meter"],
                                   server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let lastLine = try #require(lines.last)
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any])
        for key in ["lufs_m", "lufs_s", "lufs_i", "lra"] { #expect(last[key] != nil, "\(key)") }
        #expect((last["dbtp"] as? [Any])?.count == 1)
    }

    @Test("a bad --target is refused with one line and exit 2, and creates no file")
    func badTarget() throws {
        let wav = dir + "/never.wav"
        let run = try Run.jackwave(["--record", wav, "--loudness", "--target", "+3", "--duration", "1"], server: server.name)
        #expect(run.status == 2)
        #expect(run.stderr == "jackwave: error: --target: LUFS must be between -60 and 0, not +3\n")
        #expect(!FileManager.default.fileExists(atPath: wav))
    }
}
