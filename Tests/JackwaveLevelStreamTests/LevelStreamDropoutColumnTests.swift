import Foundation
import JackwaveDSP
@testable import JackwaveLevelStream
import Testing

/// A level stream that counts dropouts: a `dropouts` column (CSV) or field (JSON Lines),
/// which readers keep.
@Suite("Level stream dropout column")
struct LevelStreamDropoutColumnTests {
    static func text(format: LevelStreamFormat, take: Bool = false, gap: Bool = false) -> String {
        var f = LevelStreamFormatter(format: format, sampleRate: 48000, channelNames: ["in_1", "in_2"])
        f.dropoutColumn = true
        f.takeColumn = take
        f.gapColumn = gap
        var rows = [LevelRow(frame: 0, peaks: [0.5, 0.25]), LevelRow(frame: 256, peaks: [0.125, 1])]
        rows[0].dropouts = 0
        rows[1].dropouts = 3
        var out = f.header
        for row in rows { f.append(row, to: &out) }
        if gap {
            var gapRow = LevelRow(frame: 512, peaks: [0, 0])
            gapRow.gapSeconds = 1.5
            f.append(gapRow, to: &out)
        }
        return out
    }

    @Test("CSV: the count comes after time, take and gap_seconds, and reading back keeps it")
    func csv() throws {
        let text = Self.text(format: .csv)
        #expect(text == "frame,time,dropouts,in_1,in_2\n0,0.000000000,0,0.5,0.25\n256,0.005333333,3,0.125,1.0\n")
        let table = try LevelStreamReader.parse(TextBytes(Data(text.utf8)), format: .csv, path: "x")
        #expect(table.channelNames == ["in_1", "in_2"] && table.hasDropouts)
        #expect(table.dropouts == [0, 3])
        try #require(table.rowCount > 1, "rows at frames \(table.frames)")
        #expect(Array(table.peaks(ofRow: 1)) == [0.125, 1])
    }

    @Test("CSV with take and gap columns: the order is take, gap_seconds, dropouts; a gap row is skipped")
    func csvWithOthers() throws {
        let text = Self.text(format: .csv, take: true, gap: true)
        #expect(text.hasPrefix("frame,time,take,gap_seconds,dropouts,in_1,in_2\n"), "\(text)")
        #expect(text.contains("\n512,0.010666667,0,1.500,0,nan,nan\n"), "\(text)")
        let table = try LevelStreamReader.parse(TextBytes(Data(text.utf8)), format: .csv, path: "x")
        #expect(table.frames == [0, 256] && table.dropouts == [0, 3])
    }

    @Test("JSON Lines: a dropouts field on each row of levels, none on a gap row; reading back keeps it")
    func jsonLines() throws {
        let text = Self.text(format: .jsonl, gap: true)
        #expect(text.contains("{\"frame\":256,\"time\":0.005333333,\"dropouts\":3,\"peak\":[0.125,1.0]}"), "\(text)")
        #expect(text.contains("{\"frame\":512,\"time\":0.010666667,\"gap_seconds\":1.500}"), "\(text)")
        let table = try LevelStreamReader.parse(TextBytes(Data(text.utf8)), format: .jsonl, path: "x")
        #expect(table.hasDropouts && table.dropouts == [0, 3])
    }

    @Test("a count that is not a whole number, or on some lines only, is refused with its line")
    func refused() {
        let csv = "frame,time,dropouts,in_1\n0,0.000000000,1.5,0.5\n"
        #expect(throws: LevelStreamReadError.self) { try LevelStreamReader.parse(TextBytes(Data(csv.utf8)), format: .csv, path: "x") }
        let jsonl = "{\"frame\":0,\"time\":0,\"dropouts\":1,\"peak\":[0.5]}\n{\"frame\":256,\"time\":0.005,\"peak\":[0.5]}\n"
        #expect(throws: LevelStreamReadError.self) { try LevelStreamReader.parse(TextBytes(Data(jsonl.utf8)), format: .jsonl, path: "x") }
    }

    @Test("a table that merges rows to stay bounded adds their dropout counts: none is lost")
    func mergedRows() throws {
        var text = "frame,time,dropouts,in_1\n"
        for i in 0..<3000 { text += "\(i * 256),\(LevelStreamFormatter.time(frame: Int64(i * 256), sampleRate: 48000)),\(i % 3),0.5\n" }
        let table = try LevelStreamReader.parseCSV(TextBytes(Data(text.utf8)), path: "x", maximumPeaks: 1)
        #expect(table.rowCount < 3000 && table.dropouts.count == table.rowCount)
        #expect(table.dropouts.reduce(0, +) == 3000)   // 0 + 1 + 2 per three rows
    }

    @Test("merged counts that would pass Int.max stop there instead of trapping the reader")
    func mergedCountsSaturate() throws {
        // A CSV stream gets here through 8.4 million rows of 999,999,999,999,999 dropouts each
        // (a kept row of the 1024 then stands for 16,384); the table starts one row short of it.
        var table = LevelStreamTable(channelNames: ["a"], channelCount: 1, hasDropouts: true, maximumPeaks: 1)
        table.frames = [0]
        table.dropouts = [Int.max - 1000]
        try table.appendDropouts(999_999_999_999_999, at: "x")
        #expect(table.dropouts == [Int.max])
    }
}
