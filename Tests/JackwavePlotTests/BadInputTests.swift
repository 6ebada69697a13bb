import Foundation
import JackwaveTestSupport
import Testing
@testable import JackwavePlot

/// Plotting `input` fails as bad input, and leaves the directory without an output file.
private func expectBadInput(_ scratch: Scratch, _ input: String, output: String = "out.png",
                            options: PlotOptions = PlotOptions(), sourceLocation: SourceLocation = #_sourceLocation) {
    let before = scratch.contents
    do {
        try Plot.draw(input, to: scratch.file(output), options: options)
        Issue.record("plot succeeded", sourceLocation: sourceLocation)
    } catch {
        #expect(error.kind == .badInput, sourceLocation: sourceLocation)
        #expect(!error.message.plain.isEmpty && !error.message.plain.contains("\n"), sourceLocation: sourceLocation)
    }
    #expect(scratch.contents == before, sourceLocation: sourceLocation)
}

@Test("a missing input file is bad input and creates nothing")
func missingInput() throws { let s = try Scratch(); expectBadInput(s, s.file("nope.wav")) }

@Test("a text file named .wav is bad input and creates nothing")
func notAudio() throws { let s = try Scratch(); try expectBadInput(s, s.text("fake.wav", "hello, not audio\n")) }

@Test("a WAV file with no frames is bad input and creates nothing")
func emptyRecording() throws { let s = try Scratch(); try expectBadInput(s, s.wav("empty.wav", [], channels: 1, sampleRate: 8000)) }

@Test("an output with an unknown extension is bad input and creates nothing")
func unknownExtension() throws {
    let s = try Scratch()
    try expectBadInput(s, s.wav("a.wav", [0.1, 0.2], channels: 1, sampleRate: 8000), output: "out.jpg")
}

@Test("an inverted range is bad input and creates nothing")
func invertedRange() throws {
    let s = try Scratch()
    try expectBadInput(s, s.wav("a.wav", [Float](repeating: 0.1, count: 8000), channels: 1, sampleRate: 8000),
                   options: PlotOptions(start: 0.5, end: 0.2))
}

@Test("a range shorter than one sample is bad input and creates nothing")
func zeroLengthRange() throws {
    let s = try Scratch()
    try expectBadInput(s, s.wav("a.wav", [Float](repeating: 0.1, count: 8000), channels: 1, sampleRate: 8000),
                   options: PlotOptions(start: 0.5, end: 0.50001))
}

@Test("a start past the end of the recording is bad input and creates nothing")
func startPastEnd() throws {
    let s = try Scratch()
    try expectBadInput(s, s.wav("a.wav", [Float](repeating: 0.1, count: 8000), channels: 1, sampleRate: 8000),
                   options: PlotOptions(start: 5))
}

@Test("a level stream with a header and no rows is bad input and creates nothing")
func emptyLevelStream() throws { let s = try Scratch(); try expectBadInput(s, s.text("l.csv", "frame,time,in_1\n")) }

@Test("a level stream drawn up to 0 s is bad input and creates nothing")
func levelStreamEndingAtZero() throws {
    let s = try Scratch()
    try expectBadInput(s, s.text("l.csv", "frame,time,in_1\n0,0,0.5\n480,0.01,0.25\n"), options: PlotOptions(end: 0))
}

@Test("a MIDI file drawn up to 0 s is bad input and creates nothing")
func midiEndingAtZero() throws {
    let s = try Scratch()
    try expectBadInput(s, s.bytes("take.mid", jackwaveTake().bytes), options: PlotOptions(end: 0))
}

@Test("a level stream with a time past 10^12 s is bad input and creates nothing")
func levelStreamTimeTooLate() throws {
    let s = try Scratch()
    try expectBadInput(s, s.text("l.csv", "frame,time,in_1\n0,0,0.5\n480,1e300,0.25\n"))
    try expectBadInput(s, s.text("l.jsonl", "{\"frame\":0,\"time\":1e13,\"peak\":[0.5]}\n"))
}

/// An RF64 file of 8-bit mono at `rate` Hz whose `ds64` chunk claims `frames`, made that long
/// as a sparse file in /dev/shm (tmpfs holds a file of up to 2^63 − 1 bytes, taking no memory).
private func sparseRF64(frames: UInt64, rate: UInt32) throws -> String {
    func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
    let ds64 = le(frames + 72) + le(frames) + le(frames) + le(UInt32(0))
    let format = le(UInt16(1)) + le(UInt16(1)) + le(rate) + le(rate) + le(UInt16(1)) + le(UInt16(8))
    let header = Array("RF64".utf8) + le(UInt32.max) + Array("WAVE".utf8) + Array("ds64".utf8) + le(UInt32(ds64.count)) + ds64
        + Array("fmt ".utf8) + le(UInt32(16)) + format + Array("data".utf8) + le(UInt32.max)
    let path = "/dev/shm/jackwave-plot-test-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).wav"
    try Data(header + [UInt8](repeating: 128, count: 1024)).write(to: URL(fileURLWithPath: path))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    try handle.truncate(atOffset: UInt64(header.count) + frames)
    return path
}

@Test("a recording whose header claims 2^63 frames of a sparse file is bad input and creates nothing")
func recordingOfAbsurdLength() throws {
    let s = try Scratch()
    let input = try sparseRF64(frames: UInt64(Int64.max) - 200, rate: 1)
    defer { unlink(input) }
    expectBadInput(s, input)
}

@Test("a height too small for the lanes is bad input and creates nothing")
func tooShort() throws {
    let s = try Scratch()
    try expectBadInput(s, s.wav("a.wav", [Float](repeating: 0.1, count: 8 * 100), channels: 8, sampleRate: 8000),
                   options: PlotOptions(height: 150))
}

@Test("a plot told to replace an existing file does, and leaves no temporary file")
func replaces() throws {
    let s = try Scratch()
    let input = try s.wav("a.wav", [Float](repeating: 0.1, count: 800), channels: 1, sampleRate: 8000)
    try s.text("out.svg", "old")
    #expect(try Plot.draw(input, to: s.file("out.svg"), existing: .replace) == s.file("out.svg"))
    #expect(s.contents == ["a.wav", "out.svg"])
    #expect(try String(contentsOfFile: s.file("out.svg"), encoding: .utf8).contains("<svg"))
}

@Test("by default a plot never replaces a file at its name: refused, or drawn under the next free name")
func neverReplaces() throws {
    let s = try Scratch()
    let input = try s.wav("a.wav", [Float](repeating: 0.1, count: 800), channels: 1, sampleRate: 8000)
    try s.text("out.svg", "old")
    #expect(throws: PlotError.self) { try Plot.draw(input, to: s.file("out.svg")) }
    #expect(try String(contentsOfFile: s.file("out.svg"), encoding: .utf8) == "old")
    #expect(s.contents == ["a.wav", "out.svg"], "no temporary left")
    try s.text("out_2.svg", "old too")
    #expect(try Plot.draw(input, to: s.file("out.svg"), existing: .nextFreeName) == s.file("out_3.svg"))
    #expect(try String(contentsOfFile: s.file("out.svg"), encoding: .utf8) == "old")
    #expect(s.contents == ["a.wav", "out.svg", "out_2.svg", "out_3.svg"])
}
