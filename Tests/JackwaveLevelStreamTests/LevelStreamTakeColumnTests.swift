import Foundation
import JackwaveDSP
import JackwaveLevelStream
import Testing

/// An armed run's level stream: a `take` column after `time`, which readers skip.
@Suite("Level stream take column")
struct LevelStreamTakeColumnTests {
    static func text(format: LevelStreamFormat) -> String {
        var f = LevelStreamFormatter(format: format, sampleRate: 48000, channelNames: ["in_1", "in_2"])
        f.takeColumn = true
        var rows = [LevelRow(frame: 0, peaks: [0.5, 0.25]), LevelRow(frame: 256, peaks: [0.125, 1])]
        rows[1].take = 2
        var out = f.header
        for row in rows { f.append(row, to: &out) }
        return out
    }

    @Test("CSV: the take comes after time (0 while armed), and reading back skips it")
    func csv() throws {
        let text = Self.text(format: .csv)
        #expect(text == "frame,time,take,in_1,in_2\n0,0.000000000,0,0.5,0.25\n256,0.005333333,2,0.125,1.0\n")
        let table = try LevelStreamReader.parse(TextBytes(Data(text.utf8)), format: .csv, path: "x")
        #expect(table.channelNames == ["in_1", "in_2"])
        try #require(table.rowCount > 1, "rows at frames \(table.frames)")
        #expect(Array(table.peaks(ofRow: 1)) == [0.125, 1])
    }

    @Test("JSON Lines: a take field, which reading back ignores")
    func jsonLines() throws {
        let text = Self.text(format: .jsonl)
        #expect(text.contains("{\"frame\":256,\"time\":0.005333333,\"take\":2,\"peak\":[0.125,1.0]}"))
        let table = try LevelStreamReader.parse(TextBytes(Data(text.utf8)), format: .jsonl, path: "x")
        #expect(table.channelCount == 2 && table.frames == [0, 256])
    }
}
