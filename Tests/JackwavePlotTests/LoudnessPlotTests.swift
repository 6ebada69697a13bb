import Foundation
@testable import JackwavePlot
import Testing

/// The loudness lane, looked at pixel by pixel: where the short-term curve's deep green is.
extension CairoSurface {
    /// The short-term curve's colour (0x1b7f3b, antialiased at its edges): strongly green,
    /// and darker than the momentary curve's light green (0x9fd8a8).
    func isShortTerm(x: Int, y: Int) -> Bool {
        let p = pixel(x: x, y: y)
        return Int(p.g) - Int(p.r) > 60 && p.r < 110
    }

    /// The rows of column `x` within `box` that the short-term curve covers.
    func shortTermRows(x: Int, in box: Box) -> [Int] {
        (Int(box.y)...(Int(box.bottom) - 1)).filter { isShortTerm(x: x, y: $0) }
    }
}

@Suite("Loudness in plots")
struct LoudnessPlotTests {
    /// Layout of the pictures below.
    static let width = 640, height = 600

    @Test("plot FILE --loudness draws the short-term curve of a −20 dBFS stereo sine at −20 LUFS, once it has settled")
    func fileCurveAtKnownLoudness() throws {
        let scratch = try Scratch()
        // BS.1770: a 1 kHz sine at −20 dBFS on both channels reads −20 LUFS.
        let input = try scratch.wav("sine.wav", sine(frames: 48000 * 5, channels: 2, sampleRate: 48000, frequency: 1000,
                                                 amplitude: 0.1), channels: 2, sampleRate: 48000)
        try Plot.draw(input, to: scratch.file("out.png"),
                      options: PlotOptions(width: Self.width, height: Self.height, loudness: true))
        let picture = decodedPNG(scratch.file("out.png"))
        let lane = PlotLayout(width: Self.width, height: Self.height, lanes: 3).lane(2)
        // At 4 s the 3-s window holds only the sine.
        let x = Int(lane.x + lane.width * 4 / 5)
        let rows = picture.shortTermRows(x: x, in: lane)
        let expected = LoudnessLaneRenderer.y(-20, in: lane)
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { abs(Double($0) - expected) <= 2 }, "rows \(rows), −20 LUFS at \(expected)")
        // Nothing of it in the waveform lanes: they keep their own colours.
        let waveform = PlotLayout(width: Self.width, height: Self.height, lanes: 3).lane(0)
        #expect(picture.shortTermRows(x: x, in: waveform).isEmpty)
    }

    @Test("a level stream with loudness columns gets a second lane with its short-term curve where the stream says")
    func streamCurve() throws {
        let scratch = try Scratch()
        var csv = "frame,time,in_1,lufs_m,lufs_s,lufs_i,lra,dbtp_in_1\n"
        for i in 0..<40 {
            let s = i < 20 ? -30.0 : -12.0
            csv += "\(i * 4800),\(String(format: "%.9f", Double(i) / 10)),0.1,-25.0,\(s),-20.0,3.0,-9.0\n"
        }
        let input = try scratch.text("levels.csv", csv)
        try Plot.draw(input, to: scratch.file("out.png"), options: PlotOptions(width: Self.width, height: Self.height))
        let picture = decodedPNG(scratch.file("out.png"))
        let lane = PlotLayout(width: Self.width, height: Self.height, lanes: 2).lane(1)
        for (t, lufs) in [(1.0, -30.0), (3.0, -12.0)] {
            let x = Int(lane.x + lane.width * t / 4)
            let rows = picture.shortTermRows(x: x, in: lane)
            let expected = LoudnessLaneRenderer.y(lufs, in: lane)
            #expect(!rows.isEmpty && rows.allSatisfy { abs(Double($0) - expected) <= 2 }, "at \(t) s: rows \(rows), \(lufs) LUFS at \(expected)")
        }
    }

    @Test("a level stream without loudness keeps its one lane and no curve")
    func streamWithoutLoudness() throws {
        let scratch = try Scratch()
        var csv = "frame,time,in_1\n"
        for i in 0..<40 { csv += "\(i * 4800),\(String(format: "%.9f", Double(i) / 10)),0.5\n" }
        let input = try scratch.text("levels.csv", csv)
        try Plot.draw(input, to: scratch.file("out.png"), options: PlotOptions(width: Self.width, height: Self.height))
        let picture = decodedPNG(scratch.file("out.png"))
        let lane = PlotLayout(width: Self.width, height: Self.height, lanes: 1).lane(0)
        #expect(picture.shortTermRows(x: Int(lane.x + lane.width / 2), in: lane).isEmpty)
    }

    @Test("silence is drawn on the lane's bottom edge, the scale's floor")
    func silenceAtFloor() {
        let box = Box(x: 0, y: 100, width: 10, height: 120)
        #expect(LoudnessLaneRenderer.y(-.infinity, in: box) == 220)
        #expect(LoudnessLaneRenderer.y(-80, in: box) == 220)
        #expect(LoudnessLaneRenderer.y(-30, in: box) == 160)
        #expect(LoudnessLaneRenderer.y(0, in: box) == 100)
    }
}
