import Foundation
import JackwaveLevelStream
@testable import JackwavePlot
import Testing

private func bytes(_ s: String) -> TextBytes { TextBytes(Data(s.utf8)) }

@Test("a CSV level stream keeps each row's time and its loudest channel")
func csvRows() throws {
    let s = try LevelStream.parseCSV(bytes("frame,time,in_1,in_2\n0,0,0.1,0.5\n480,0.01,0.7,0.2\n"), path: "x.csv")
    #expect(s.channelNames == ["in_1", "in_2"])
    #expect(s.times == [0, 0.01])
    #expect(s.peaks == [0.5, 0.7])
    #expect(abs(s.duration - 0.02) < 1e-12)
}

@Test("a JSON Lines level stream keeps each row's time and its loudest channel")
func jsonLines() throws {
    let text = """
    {"frame":0,"time":0,"peak":[0.1,0.2]}
    {"frame":123,"time":0.0025625,"peak":[0.4,0.3]}

    """
    let s = try LevelStream.parseJSONLines(bytes(text), path: "x.jsonl")
    #expect(s.channelNames == ["L", "R"])
    #expect(s.times == [0, 0.0025625])
    #expect(s.peaks == [0.2, 0.4])
}

@Test("a CSV row with a garbage peak is refused with its line number")
func csvGarbage() {
    #expect(throws: PlotError.badInput("x.csv line 3: peak 'loud' is not a number")) {
        try LevelStream.parseCSV(bytes("frame,time,a\n0,0,0.1\n1,0.1,loud\n"), path: "x.csv")
    }
}

@Test("a CSV without the frame,time header is not a level stream")
func csvNoHeader() {
    #expect(throws: PlotError.self) { try LevelStream.parseCSV(bytes("a,b,c\n1,2,3\n"), path: "x.csv") }
}

@Test("a JSON Lines row whose channel count changes is refused")
func jsonChannelCount() {
    #expect(throws: PlotError.badInput("x.jsonl line 2: 1 peaks, earlier lines have 2")) {
        try LevelStream.parseJSONLines(bytes("{\"frame\":0,\"time\":0,\"peak\":[0.1,0.2]}\n{\"frame\":1,\"time\":0.1,\"peak\":[0.1]}\n"), path: "x.jsonl")
    }
}

@Test("times that go backwards are refused")
func timesBackwards() {
    #expect(throws: PlotError.self) { try LevelStream.parseCSV(bytes("frame,time,a\n0,1,0.1\n1,0.5,0.1\n"), path: "x.csv") }
}

@Test("many more rows than pixels share bars, and each bar shows the loudest of its rows")
func barsKeepPeaks() {
    var times: [Double] = [], peaks: [Float] = []
    for i in 0..<10_000 { times.append(Double(i) * 0.001); peaks.append(i == 4_321 ? 1 : 0.1) }
    let stream = LevelStream(channelNames: ["a"], times: times, peaks: peaks)
    let picture = LevelPicture(title: "", stream: stream, start: 0, end: 10, scale: .linear)
    let box = Box(x: 0, y: 0, width: 600, height: 100)
    let bars = LevelStreamRenderer.bars(picture, box: box)
    #expect(bars.count == 200)
    #expect(bars.filter { $0.peak == 1 }.count == 1)
}

@Test("rows a few smallest doubles apart share bars that stay inside the lane")
func barsOfDenormalRows() {
    // A hostile stream's times: 1000 rows, each the smallest positive double after the last.
    let times = (0..<1000).map { Double($0) * Double.leastNonzeroMagnitude }
    let stream = LevelStream(channelNames: ["a"], times: times, peaks: [Float](repeating: 0.5, count: times.count))
    let picture = LevelPicture(title: "", stream: stream, start: 0, end: stream.duration, scale: .linear)
    let box = Box(x: 0, y: 0, width: 600, height: 100)
    let bars = LevelStreamRenderer.bars(picture, box: box)
    #expect(!bars.isEmpty && bars.count <= 200)
    #expect(bars.allSatisfy { $0.x >= box.x && $0.x <= box.right && $0.peak == 0.5 })
}

@Test("JSON Lines in any key order, spacing, or with escapes read the same as the writer's form")
func jsonLinesVariants() throws {
    let text = """
    { "peak" : [ 0.25 , 0.5 ] , "time" : 0 , "frame" : 0 }
    {"fr\\u0061me":480,"time":0.01,"peak":[0.75,0.1],"note":"from Foundation"}
    """
    let s = try LevelStream.parseJSONLines(bytes(text), path: "x.jsonl")
    #expect(s.times == [0, 0.01])
    #expect(s.peaks == [0.5, 0.75])
}

@Test("a JSON Lines line that is not JSON is refused with its line number")
func jsonGarbage() {
    #expect(throws: PlotError.badInput("x.jsonl line 2: not a JSON object")) {
        try LevelStream.parseJSONLines(bytes("{\"frame\":0,\"time\":0,\"peak\":[0.1]}\n{\"frame\":1,\n"), path: "x.jsonl")
    }
}

@Test("a CSV stream with CRLF line ends and spaces after commas reads normally")
func csvCRLF() throws {
    let s = try LevelStream.parseCSV(bytes("frame,time,a\r\n0, 0, 0.25\r\n256, 0.005, 1e-1\r\n"), path: "x.csv")
    #expect(s.times == [0, 0.005])
    #expect(s.peaks == [0.25, 0.1])
}

@Test("non-finite peaks as the writer spells them are read: inf as full scale, nan and null skipped")
func nonFinitePeaks() throws {
    let csv = try LevelStream.parseCSV(bytes("frame,time,a,b\n0,0.000000000,inf,0.5\n256,0.005333333,nan,0.25\n"), path: "x.csv")
    #expect(csv.peaks == [.infinity, 0.25])
    let jsonl = try LevelStream.parseJSONLines(bytes("{\"frame\":0,\"time\":0.000000000,\"peak\":[null,0.5]}\n"), path: "x.jsonl")
    #expect(jsonl.peaks == [0.5])
}

@Test("a quoted port name holding a comma stays one channel name")
func quotedHeader() throws {
    let s = try LevelStream.parseCSV(bytes("frame,time,\"mic, left\",\"say \"\"hi\"\"\"\n0,0,0.1,0.2\n"), path: "x.csv")
    #expect(s.channelNames == ["mic, left", "say \"hi\""])
}
