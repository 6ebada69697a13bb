import Foundation
import JackwaveDSP
import JackwaveLevelStream
import Testing

/// The format pinned from both ends: what `LevelStreamFormatter` writes,
/// `LevelStreamReader` reads back exactly.
@Suite("Level stream round trip")
struct LevelStreamRoundTripTests {
    /// Peaks whose shortest text needs every style, and the non-finite values a signal can hold.
    static let peaks: [Float] = [0, 1, 0.1, 1e-05, 3.0517578e-05, 0.70710677, .leastNonzeroMagnitude,
                                 0.99999994, 1.4142135, 123.456, .infinity, .nan]

    /// Rows of three channels through every peak above, from frame 0 to a week at the rate.
    static func rows(rate: Int) -> [LevelRow] {
        let week = Int64(rate) * 7 * 24 * 3600
        let frames: [Int64] = [0, 1, 255, Int64(rate) - 1, Int64(rate), 1_234_567, week]
        return frames.enumerated().map { i, frame in
            LevelRow(frame: frame, peaks: (0..<3).map { peaks[(i * 3 + $0) % peaks.count] })
        }
    }

    static func text(_ rows: [LevelRow], format: LevelStreamFormat, rate: Int, names: [String]) -> String {
        let f = LevelStreamFormatter(format: format, sampleRate: rate, channelNames: names)
        var out = f.header
        for row in rows { f.append(row, to: &out) }
        return out
    }

    static func read(_ text: String, format: LevelStreamFormat) throws -> LevelStreamTable {
        try LevelStreamReader.parse(TextBytes(Data(text.utf8)), format: format, path: "x")
    }

    @Test("CSV gives back every frame, a time that rounds to it, and bit-identical peaks", arguments: [44100, 48000, 192_000])
    func csv(rate: Int) throws {
        let rows = Self.rows(rate: rate)
        let table = try Self.read(Self.text(rows, format: .csv, rate: rate, names: ["in_1", "in_2", "in_3"]), format: .csv)
        #expect(table.channelNames == ["in_1", "in_2", "in_3"])
        #expect(table.rowCount == rows.count)
        #expect(table.frames == rows.map(\.frame))
        #expect(zip(table.times, rows).allSatisfy { ($0 * Double(rate)).rounded() == Double($1.frame) })
        for (i, row) in rows.enumerated() where i < table.rowCount {   // a missing row fails the count above
            #expect(table.peaks(ofRow: i).map(\.bitPattern) == row.peaks.map { $0.isNaN ? Float.nan.bitPattern : $0.bitPattern })
        }
    }

    @Test("JSON Lines gives back every frame and finite peak exactly; non-finite peaks come back as NaN (JSON null)",
          arguments: [44100, 48000, 192_000])
    func jsonLines(rate: Int) throws {
        let rows = Self.rows(rate: rate)
        let table = try Self.read(Self.text(rows, format: .jsonl, rate: rate, names: ["a", "b", "c"]), format: .jsonl)
        #expect(table.channelNames == nil)
        #expect(table.channelCount == 3)
        #expect(table.frames == rows.map(\.frame))
        #expect(zip(table.times, rows).allSatisfy { ($0 * Double(rate)).rounded() == Double($1.frame) })
        for (i, row) in rows.enumerated() where i < table.rowCount {   // a missing row fails the frames above
            for (read, written) in zip(table.peaks(ofRow: i), row.peaks) {
                if written.isFinite { #expect(read.bitPattern == written.bitPattern) } else { #expect(read.isNaN) }
            }
        }
    }

    @Test("a port name holding a comma or a quote survives the CSV header")
    func quotedNames() throws {
        let names = ["system:capture_1", "a,b", "say \"hi\""]
        let text = Self.text(Self.rows(rate: 48000), format: .csv, rate: 48000, names: names)
        #expect(try Self.read(text, format: .csv).channelNames == names)
    }

    @Test("random peaks round-trip bit for bit through CSV and JSON Lines")
    func randomPeaks() throws {
        var random = SplitMix64(seed: 7)
        let rows = (0..<2000).map { i in
            LevelRow(frame: Int64(i) * 256, peaks: (0..<2).map { _ in Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) & 0x3FFF_FFFF) })
        }
        for format in LevelStreamFormat.allCases {
            let table = try Self.read(Self.text(rows, format: format, rate: 48000, names: ["l", "r"]), format: format)
            #expect(table.peaks.map(\.bitPattern) == rows.flatMap(\.peaks).map(\.bitPattern), "\(format)")
        }
    }

    @Test("the format follows the path: .jsonl and .ndjson are JSON Lines, the rest CSV, unless one is named")
    func formatForPath() {
        #expect(LevelStreamFormat.forPath("x.jsonl") == .jsonl)
        #expect(LevelStreamFormat.forPath("X.NDJSON") == .jsonl)
        #expect(LevelStreamFormat.forPath("x.csv") == .csv)
        #expect(LevelStreamFormat.forPath("-") == .csv)
        #expect(LevelStreamFormat.forPath("x.csv", explicit: .jsonl) == .jsonl)
    }

    @Test("a malformed row is refused with the path and its line number")
    func malformedRow() {
        #expect(throws: LevelStreamReadError("x line 3: peak 'loud' is not a number")) {
            try Self.read("frame,time,a\n0,0.000000000,0.1\n1,0.000020833,loud\n", format: .csv)
        }
        #expect(throws: LevelStreamReadError("x line 2: frame '-1.0' is not a whole number")) {
            try Self.read("{\"frame\":0,\"time\":0,\"peak\":[0.5]}\n{\"frame\":-1,\"time\":0,\"peak\":[0.5]}\n", format: .jsonl)
        }
    }
}
