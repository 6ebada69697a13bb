import JackwaveLevelStream
import Foundation
import JackwaveDSP
@testable import JackwaveLevelStream
import JackwaveTestSupport
import Testing

/// Peaks whose shortest text needs every style: exponents, 9 significant digits, 1.0, 0.
private let awkwardPeaks: [Float] = [0, 1, 0.1, 1e-05, 3.0517578e-05, 0.70710677, Float.leastNonzeroMagnitude,
                                     0.99999994, 1.4142135, 123.456]

private let rows = [
    LevelRow(frame: 0, peaks: Array(awkwardPeaks[0..<5])),
    LevelRow(frame: 1_234_567_891, peaks: Array(awkwardPeaks[5..<10])),
]

private func text(_ format: LevelStreamFormat, rate: Int = 48000) -> String {
    let f = LevelStreamFormatter(format: format, sampleRate: rate, channelNames: (1...5).map { "in_\($0)" })
    var out = f.header
    for row in rows { f.append(row, to: &out) }
    return out
}

@Suite("LevelStreamFormatter")
struct LevelStreamFormatterTests {
    @Test("The CSV header is frame, time and the port names")
    func csvHeader() {
        let f = LevelStreamFormatter(format: .csv, sampleRate: 48000, channelNames: ["in_1", "in_2"])
        #expect(f.header == "frame,time,in_1,in_2\n")
    }

    @Test("CSV rows parse back to the same frames, times and bit-identical peaks")
    func csvRoundTrip() throws {
        let lines = text(.csv).split(separator: "\n")
        #expect(lines.count == 3)
        for (line, row) in zip(lines.dropFirst(), rows) {
            let fields = line.split(separator: ",").map(String.init)
            #expect(fields.element(at: 0).flatMap { Int64($0) } == row.frame, "\(line)")
            let time = try #require(fields.element(at: 1).flatMap { Double($0) }, "\(line)")
            #expect((time * 48000).rounded() == Double(row.frame))
            #expect(fields.dropFirst(2).map { Float($0)?.bitPattern } == row.peaks.map { Optional($0.bitPattern) }, "\(line)")
        }
    }

    @Test("JSON Lines parse with JSONSerialization to the same frames, times and peaks")
    func jsonlRoundTrip() throws {
        let lines = text(.jsonl).split(separator: "\n")
        #expect(lines.count == 2)
        for (line, row) in zip(lines, rows) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((object["frame"] as? NSNumber)?.int64Value == row.frame)
            let time = try #require((object["time"] as? NSNumber)?.doubleValue)
            #expect((time * 48000).rounded() == Double(row.frame))
            let peaks = try #require(object["peak"] as? [NSNumber])
            #expect(peaks.map { Float($0.doubleValue).bitPattern } == row.peaks.map(\.bitPattern))
        }
    }

    @Test("Time has nine decimals and gives back the frame at 44.1, 48, 192 and 768 kHz")
    func timeExactToTheFrame() throws {
        #expect(LevelStreamFormatter.time(frame: 0, sampleRate: 48000) == "0.000000000")
        #expect(LevelStreamFormatter.time(frame: 48000, sampleRate: 48000) == "1.000000000")
        #expect(LevelStreamFormatter.time(frame: 1, sampleRate: 192000) == "0.000005208")
        #expect(LevelStreamFormatter.time(frame: 2, sampleRate: 3) == "0.666666667")
        for rate in [44100, 48000, 192000, 768000] {
            for frame in [Int64(1), 7, 12345, 999_999_937, Int64(rate) * 86400 * 7 - 1] {
                let text = LevelStreamFormatter.time(frame: frame, sampleRate: rate)
                let t = try #require(Double(text), "frame \(frame) at \(rate): \(text)")
                #expect((t * Double(rate)).rounded() == Double(frame), "frame \(frame) at \(rate)")
            }
        }
    }

    @Test("The stream format follows --levels-format, else the extension; stdout is CSV")
    func formatChoice() {
        #expect(LevelStreamFormat.forPath("a.csv", explicit: nil) == .csv)
        #expect(LevelStreamFormat.forPath("-", explicit: nil) == .csv)
        #expect(LevelStreamFormat.forPath("a.JSONL", explicit: nil) == .jsonl)
        #expect(LevelStreamFormat.forPath("a.ndjson", explicit: nil) == .jsonl)
        #expect(LevelStreamFormat.forPath("-", explicit: .jsonl) == .jsonl)
        #expect(LevelStreamFormat.forPath("a.jsonl", explicit: .csv) == .csv)
    }

    @Test("JSON has no infinity: a non-finite peak is null there, inf in CSV")
    func nonFinitePeaks() {
        #expect(LevelStreamFormatter.number(.infinity, json: true) == "null")
        #expect(LevelStreamFormatter.number(.infinity, json: false) == "inf")
    }
}
