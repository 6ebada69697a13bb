import Foundation
import FoundationXML
@testable import JackwavePlot
import JackwaveSoundFiles
import Testing

/// A decoded PNG, looked at the way a person would: is there waveform ink at a spot?
private struct Picture {
    let surface: CairoSurface

    init(png path: String) { surface = decodedPNG(path) }

    /// The waveform colours (and the level bars) are strongly blue or red; the background,
    /// grid, text and centre line are greys, whose channels differ by a few steps at most.
    func isInk(x: Int, y: Int) -> Bool {
        let p = surface.pixel(x: x, y: y)
        return abs(Int(p.b) - Int(p.r)) > 50
    }

    /// Ink anywhere in rows `rows` of column `x`.
    func inkRows(x: Int, _ rows: ClosedRange<Int>) -> [Int] { rows.filter { isInk(x: x, y: $0) } }
}

/// One second of a loud 0.9 sine, then one second of digital silence, mono, 8 kHz.
private func loudThenSilent(_ scratch: Scratch) throws -> String {
    let loud = sine(frames: 8000, channels: 1, sampleRate: 8000, frequency: 440, amplitude: 0.9)
    return try scratch.wav("loud-then-silent.wav", loud + [Float](repeating: 0, count: 8000), channels: 1, sampleRate: 8000)
}

@Test("a PNG plot has the requested size")
func pngSize() throws {
    let scratch = try Scratch()
    let input = try loudThenSilent(scratch)
    try Plot.draw(input, to: scratch.file("out.png"), options: PlotOptions(width: 640, height: 300))
    let picture = Picture(png: scratch.file("out.png"))
    #expect(picture.surface.error == nil)
    #expect(picture.surface.width == 640)
    #expect(picture.surface.height == 300)
}

@Test("a loud section reaches near the lane's top and a silent one leaves the lane empty off the centre line")
func loudAndSilentColumns() throws {
    let scratch = try Scratch()
    let input = try loudThenSilent(scratch)
    let options = PlotOptions(width: 640, height: 300)
    try Plot.draw(input, to: scratch.file("out.png"), options: options)
    let picture = Picture(png: scratch.file("out.png"))
    let layout = PlotLayout(width: 640, height: 300, lanes: 1)
    let lane = layout.lane(0)
    let top = Int(lane.y), mid = Int(lane.midY), bottom = Int(lane.bottom) - 1
    let loudX = Int(lane.x + lane.width * 0.25)
    let silentX = Int(lane.x + lane.width * 0.75)
    // 0.9 of full scale: ink reaches the top tenth of the upper half, and the bottom tenth.
    let reach = Int(lane.height / 2 * 0.12)
    #expect(!picture.inkRows(x: loudX, top...(top + reach)).isEmpty)
    #expect(!picture.inkRows(x: loudX, (bottom - reach)...bottom).isEmpty)
    #expect(picture.inkRows(x: loudX, (top + reach + 2)...(mid - 2)).count > reach)
    #expect(picture.inkRows(x: silentX, top...(mid - 2)).isEmpty)
    #expect(picture.inkRows(x: silentX, (mid + 2)...bottom).isEmpty)
}

@Test("a stereo plot has two lanes, each with its own channel's loudness")
func stereoLanes() throws {
    let scratch = try Scratch()
    var samples = [Float](repeating: 0, count: 4000 * 2)
    for i in 0..<4000 { samples[2 * i] = i % 2 == 0 ? 0.8 : -0.8 }   // L loud, R silent
    let input = try scratch.wav("stereo.wav", samples, channels: 2, sampleRate: 4000)
    try Plot.draw(input, to: scratch.file("out.png"), options: PlotOptions(width: 500, height: 400))
    let picture = Picture(png: scratch.file("out.png"))
    let layout = PlotLayout(width: 500, height: 400, lanes: 2)
    let left = layout.lane(0), right = layout.lane(1)
    let x = Int(left.x + left.width / 2)
    #expect(!picture.inkRows(x: x, Int(left.y)...Int(left.midY) - 2).isEmpty)
    #expect(picture.inkRows(x: x, Int(right.y)...Int(right.midY) - 2).isEmpty)
}

@Test("zoomed in past the samples, the waveform is drawn as a line through them")
func zoomedLine() throws {
    let scratch = try Scratch()
    let input = try loudThenSilent(scratch)
    // 20 frames across 542 columns.
    try Plot.draw(input, to: scratch.file("zoom.png"), options: PlotOptions(width: 640, height: 300, start: 0.1, end: 0.1025))
    let picture = Picture(png: scratch.file("zoom.png"))
    let lane = PlotLayout(width: 640, height: 300, lanes: 1).lane(0)
    let inked = stride(from: Int(lane.x) + 5, to: Int(lane.right) - 5, by: 5).filter {
        !picture.inkRows(x: $0, Int(lane.y)...Int(lane.bottom) - 1).isEmpty
    }
    // A continuous line crosses every column; empty columns would mean dots or gaps.
    #expect(inked.count == (Int(lane.right) - 5 - (Int(lane.x) + 5) + 4) / 5)
}

@Test("in the dB view a -20 dBFS sine reaches two thirds of the way to the edge")
func decibelView() throws {
    let scratch = try Scratch()
    let quiet = sine(frames: 8000, channels: 1, sampleRate: 8000, frequency: 100, amplitude: 0.1)
    let input = try scratch.wav("quiet.wav", quiet, channels: 1, sampleRate: 8000)
    try Plot.draw(input, to: scratch.file("db.png"), options: PlotOptions(width: 640, height: 300, decibels: true))
    let picture = Picture(png: scratch.file("db.png"))
    let lane = PlotLayout(width: 640, height: 300, lanes: 1).lane(0)
    let x = Int(lane.x + lane.width / 2)
    let ink = picture.inkRows(x: x, Int(lane.y)...Int(lane.midY))
    let reach = (lane.midY - Double(ink.min() ?? Int(lane.midY))) / (lane.height / 2)
    #expect(abs(reach - 2.0 / 3) < 0.04)
}

@Test("the SVG output is well-formed XML with an svg root of the requested size")
func svgParses() throws {
    let scratch = try Scratch()
    let input = try loudThenSilent(scratch)
    try Plot.draw(input, to: scratch.file("out.svg"), options: PlotOptions(width: 700, height: 320))
    final class Root: NSObject, XMLParserDelegate {
        var name: String?
        var attributes: [String: String] = [:]
        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            if name == nil { name = element; self.attributes = attributes }
        }
    }
    let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: scratch.file("out.svg"))))
    let root = Root()
    parser.delegate = root
    #expect(parser.parse())
    #expect(root.name == "svg")
    #expect(root.attributes["width"] == "700px" || root.attributes["width"] == "700")
    #expect(root.attributes["height"] == "320px" || root.attributes["height"] == "320")
}

@Test("a level stream is drawn as bars where it is loud and dots where it is silent")
func levelStreamBars() throws {
    let scratch = try Scratch()
    var csv = "frame,time,in_1,in_2\n"
    for i in 0..<100 {
        let loud = i < 50
        csv += "\(i * 480),\(Double(i) * 0.01),\(loud ? 0.9 : 0),\(loud ? 0.3 : 0)\n"
    }
    let input = try scratch.text("levels.csv", csv)
    try Plot.draw(input, to: scratch.file("levels.png"), options: PlotOptions(width: 640, height: 300))
    let picture = Picture(png: scratch.file("levels.png"))
    let lane = PlotLayout(width: 640, height: 300, lanes: 1).lane(0)
    func inkAbove(_ fraction: Double) -> Bool {
        // Any of a few neighbouring columns: bars have gaps between them.
        let x = Int(lane.x + lane.width * fraction)
        return (x - 4...x + 4).contains { !picture.inkRows(x: $0, Int(lane.y) + 4...Int(lane.midY) - 4).isEmpty }
    }
    #expect(inkAbove(0.25))
    #expect(!inkAbove(0.75))
}
