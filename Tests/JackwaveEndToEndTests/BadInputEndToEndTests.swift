import Foundation
import JackwaveTestSupport
import Testing

/// Every bad input: one line on stderr, exit code 2, no file created, an existing file
/// untouched; with jackd and with PipeWire running (some refusals need the server's ports).
@Suite("Bad input is refused before anything is touched", .serialized)
struct BadInputEndToEndTests {
    let dir = temporaryDirectory()

    /// Arguments with `OUT` standing for a fresh output path in the test's directory.
    static let cases: [[String]] = [
        ["--bogus"],
        ["--record"],
        ["--record", "OUT.wav", "--channels"],
        ["--record", "OUT.wav", "-c", "0"],
        ["--record", "OUT.wav", "-c", "-3"],
        ["--record", "OUT.wav", "-c", "100000"],
        ["--record", "OUT.wav", "-c", "two"],
        ["--record", "OUT.wav", "-d", "0"],
        ["--record", "OUT.wav", "-d", "-1"],
        ["--record", "OUT.wav", "-d", "nan"],
        ["--record", "OUT.wav", "-d", "1e300"],
        ["--record", "OUT.wav", "--bits", "12"],
        ["--record", "OUT.flac", "--bits", "float"],
        ["--record", "OUT.aac"],
        ["--record", "OUT"],
        ["--record", "/nonexistent-dir/x.wav"],
        ["--record", "DIR"],
        ["--record", "OUT.wav", "-p", "nosuch:port"],
        ["--record", "OUT.wav", "--manual", "-p", "system:capture_1"],
        ["--record", "OUT.wav", "--buffer", "0"],
        ["--record", "OUT.wav", "stray"],
        ["--tone", "0"],
        ["--tone", "-440"],
        ["--tone", "nan"],
        ["--tone", "abc"],
        ["--tone", "24000"],
        ["--tone", "30000"],
        ["--tone", "440", "--volume", "1.5"],
        ["--tone", "440", "--volume", "3dB"],
        ["--tone", "440", "--volume", "loud"],
        ["--tone", "440", "--outputs", "0"],
        ["--tone", "440", "--fade", "-5"],
        ["--tone", "440", "-t", "nosuch:*"],
        ["--levels", "OUT.csv", "--levels-format", "xml"],
        ["--levels", "OUT.csv", "--level-interval", "0"],
        ["--record", "OUT.wav", "--levels", "OUT.wav"],
        ["--bits", "16"],
        ["--record", "OUT.wav", "--levels", "./OUT.wav"],
        ["--record", "OUT.wav", "--split", "0.000001", "--levels", "OUT.csv"],
        ["--record", "OUT.wav", "--buffer", "0.001"],
        ["--record", "OUT.flac", "-c", "9", "--manual"],
        ["--record", "OUT.wav", "--volume", "0.5"],
        ["--record", "OUT.wav", "--fade", "10"],
        ["--record", "OUT.wav", "--level-interval", "10"],
        ["--record", "OUT.wav", "--stream", "icecast://127.0.0.1/a.ogg", "--stream-ca", "/etc/hostname"],
        ["--record", "OUT.wav", "--stream", "icecasts://127.0.0.1/a.ogg", "--stream-ca", "DIR"],
    ]

    /// One server of each kind for every case (starting one per case cost a fifth of a
    /// second each, 88 times); each case runs in a directory of its own.
    @Test("a bad input exits 2 with one line and creates no file", arguments: ServerKind.allCases)
    func refused(on kind: ServerKind) throws {
        let server = try kind.start()
        for arguments in Self.cases {
            let caseDir = dir + "/\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: caseDir + "/DIR", withIntermediateDirectories: true)
            let args = arguments.map {
                // "./OUT…" becomes "<dir>/./OUT…": another spelling of the same file.
                $0.hasPrefix("OUT") || $0.hasPrefix("./OUT") ? caseDir + "/" + $0 : $0 == "DIR" ? caseDir + "/DIR" : $0
            }
            let run = try Run.jackwave(args, server: server.name)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(arguments): \(run.stderr)")
            #expect(lines.first?.hasPrefix("jackwave: error: ") == true, "\(arguments): \(run.stderr)")
            let created = try FileManager.default.contentsOfDirectory(atPath: caseDir)
            #expect(created == ["DIR"], "\(arguments) created \(created)")
        }
    }

    @Test("a refused run leaves an existing file untouched", arguments: ServerKind.allCases)
    func existingUntouched(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/keep.wav"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        for args in [["--record", path], ["--record", path, "-p", "nosuch:x", "--force"], ["--record", path, "-c", "0", "--force"]] {
            let run = try Run.jackwave(args, server: server.name)
            #expect(run.status == 2, "\(args)")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    @Test("take names longer than NAME_MAX are refused at the start, not when the take starts")
    func takeNameTooLong() throws {
        // Once armed and waited, then lost the take as it started (ENAMETOOLONG, exit 1).
        let server = try ServerKind.jackd.start()
        let caseDir = dir + "/\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: caseDir, withIntermediateDirectories: true)
        let run = try Run.jackwave(["--record", caseDir + "/x.wav", "--transport", "--name-pattern", "%P_%S_%T.wav",
                                    "--project", String(repeating: "p", count: 128), "--scene", String(repeating: "s", count: 128)],
                                   server: server.name)
        #expect(run.status == 2, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(lines.first?.hasPrefix("jackwave: error: --record ") == true, "\(run.stderr)")
        #expect(lines.first?.contains("(NAME_MAX)") == true, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: caseDir).isEmpty)
    }

    @Test("a planted name numbered Int.max is passed over in one line, and the recording is made")
    func plantedNamePassedOver() throws {
        // Once trapped the recorder at its start (arithmetic overflow, exit 132).
        let server = try ServerKind.jackd.start()
        let caseDir = dir + "/\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: caseDir, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: caseDir + "/take-9223372036854775807.wav"))
        try Data().write(to: URL(fileURLWithPath: caseDir + "/take-004.wav"))
        let run = try Run.jackwave(["--record", caseDir + "/take.wav", "--split", "10", "-d", "0.5"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").filter { $0.contains("take-9223372036854775807.wav") && $0.contains("passed over") }.count == 1,
                "\(run.stderr)")
        let made = try Recording(caseDir + "/take-005.wav")
        #expect(made.frames > 0)
    }
}
