import Foundation
import JackwaveTestSupport
import Testing

/// `jackwave plot` run as a user runs it: the built binary (`Run.jackwave`), its exit code
/// and its output.
private enum Jackwave {
    static func run(_ arguments: [String]) throws -> Run.Output {
        try Run.tool(Run.jackwave, arguments, server: nil)
    }
}

/// The command fails with exit code 2 and exactly one `jackwave: error:` line, and
/// creates no file.
private func expectUsageError(_ arguments: (Scratch) -> [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let scratch = try Scratch()
    try scratch.wav("in.wav", [Float](repeating: 0.1, count: 800), channels: 1, sampleRate: 8000)
    let result = try Jackwave.run(["plot"] + arguments(scratch))
    #expect(result.status == 2, sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1 && lines[0].hasPrefix("jackwave: error: "), "\(result.stderr)", sourceLocation: sourceLocation)
    #expect(scratch.contents == ["in.wav"], sourceLocation: sourceLocation)
}

@Test("plot with a garbage --width exits 2 with one error line")
func garbageWidth() throws {
    try expectUsageError { [$0.file("in.wav"), "-o", $0.file("out.png"), "--width", "wide"] }
}

@Test("plot with a garbage --start exits 2 with one error line")
func garbageStart() throws {
    try expectUsageError { [$0.file("in.wav"), "-o", $0.file("out.png"), "--start", "1e999"] }
}

@Test("plot with an unknown option exits 2 with one error line")
func unknownOption() throws {
    try expectUsageError { [$0.file("in.wav"), "-o", $0.file("out.png"), "--colour", "red"] }
}

@Test("plot without -o exits 2 with one error line")
func missingOutput() throws {
    try expectUsageError { [$0.file("in.wav")] }
}

@Test("plot of a missing file exits 2 with one error line")
func missingFile() throws {
    try expectUsageError { [$0.file("nope.wav"), "-o", $0.file("out.png")] }
}

@Test("plot with an inverted range exits 2 with one error line")
func invertedRangeCLI() throws {
    try expectUsageError { [$0.file("in.wav"), "-o", $0.file("out.png"), "--start", "0.08", "--end", "0.02"] }
}

@Test("plot refuses to overwrite an existing picture without --force")
func refusesOverwrite() throws {
    let scratch = try Scratch()
    let input = try scratch.wav("in.wav", [Float](repeating: 0.1, count: 800), channels: 1, sampleRate: 8000)
    try scratch.text("out.png", "keep me")
    let result = try Jackwave.run(["plot", input, "-o", scratch.file("out.png")])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--force"))
    #expect(try String(contentsOfFile: scratch.file("out.png"), encoding: .utf8) == "keep me")
}

@Test("a successful plot exits 0, prints nothing on stdout, and writes the picture")
func succeeds() throws {
    let scratch = try Scratch()
    let input = try scratch.wav("in.wav", [Float](repeating: 0.1, count: 800), channels: 1, sampleRate: 8000)
    let result = try Jackwave.run(["plot", input, "-o", scratch.file("out.png"), "--width", "400", "--db"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(scratch.exists("out.png"))
}
