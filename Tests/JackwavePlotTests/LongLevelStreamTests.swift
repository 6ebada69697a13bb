import Foundation
import JackwaveLevelStream
@testable import JackwavePlot
import Testing

/// A level stream longer than plot keeps: its rows merged, its picture the same.
@Suite("Long level streams")
struct LongLevelStreamTests {
    @Test("a stream merged to fit keeps its duration, its row count and its loudest peak")
    func mergedKeepsWhatThePictureShows() throws {
        var text = "frame,time,in_1\n"
        for i in 0..<200_001 {
            let peak = i == 123_457 ? "0.95" : i % 2 == 0 ? "0.1" : "0.2"
            text += "\(i * 256),\(String(format: "%.9f", Double(i * 256) / 48000)),\(peak)\n"
        }
        let whole = try LevelStream.parseCSV(TextBytes(Data(text.utf8)), path: "x")
        let merged = try LevelStream.parseCSV(TextBytes(Data(text.utf8)), path: "x", maximumPeaks: 1 << 14)
        #expect(merged.times.count <= 16_384 && merged.times.count < whole.times.count)
        #expect(merged.rowsRead == 200_001 && whole.rowsRead == 200_001)
        #expect(abs(merged.duration - whole.duration) < 1e-9, "\(merged.duration) vs \(whole.duration)")
        // Every kept row but the last (row 200 000 alone: 0.1) holds an odd row's 0.2.
        #expect(merged.peaks.max() == 0.95 && merged.peaks.dropLast().min() == 0.2 && merged.peaks.last == 0.1)
    }
}
