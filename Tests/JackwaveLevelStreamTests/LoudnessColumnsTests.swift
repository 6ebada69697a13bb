import Foundation
import JackwaveDSP
import JackwaveLevelStream
import JackwaveTestSupport
import Testing

/// The loudness columns (`--loudness`) pinned from both ends: what `LevelStreamFormatter`
/// writes, `LevelStreamReader` reads back bit for bit.
@Suite("Level stream loudness columns")
struct LoudnessColumnsTests {
    /// Three rows of two channels: before any reading (nil), a quiet start (−∞ integrated),
    /// and a full reading.
    static let rows: [LevelRow] = [
        LevelRow(frame: 0, peaks: [0.1, 0.2]),
        { var r = LevelRow(frame: 4800, peaks: [0.1, 0.2])
          r.loudness = LoudnessColumns(momentary: -26.00797, shortTerm: -34.758583, integrated: -.infinity, range: 0,
                                       truePeaks: [-19.987707, -.infinity])
          return r }(),
        { var r = LevelRow(frame: 9600, peaks: [0.5, 1])
          r.loudness = LoudnessColumns(momentary: -23.000633, shortTerm: -22.9, integrated: -23.012, range: 4.25,
                                       truePeaks: [-0.5, 0.3])
          return r }(),
    ]

    static func text(_ format: LevelStreamFormat) -> String {
        let f = LevelStreamFormatter(format: format, sampleRate: 48000, channelNames: ["in_1", "in_2"], loudness: true)
        var out = f.header
        for row in rows { f.append(row, to: &out) }
        return out
    }

    static func read(_ text: String, _ format: LevelStreamFormat) throws -> LevelStreamTable {
        try LevelStreamReader.parse(TextBytes(Data(text.utf8)), format: format, path: "x")
    }

    @Test("the CSV header names lufs_m, lufs_s, lufs_i, lra and a dbtp_ column per port after the peaks")
    func csvHeader() {
        #expect(Self.text(.csv).split(separator: "\n").first
                == "frame,time,in_1,in_2,lufs_m,lufs_s,lufs_i,lra,dbtp_in_1,dbtp_in_2")
    }

    @Test("a CSV row holds the reading's values, and nan where there is no reading")
    func csvRows() {
        let lines = Self.text(.csv).split(separator: "\n")
        #expect(lines.element(at: 1) == "0,0.000000000,0.1,0.2,nan,nan,nan,nan,nan,nan")
        #expect(lines.element(at: 2) == "4800,0.100000000,0.1,0.2,-26.00797,-34.758583,-inf,0.0,-19.987707,-inf")
    }

    @Test("a JSON line adds lufs_m, lufs_s, lufs_i, lra and a dbtp array; null for −∞ and no reading")
    func jsonRows() {
        let lines = Self.text(.jsonl).split(separator: "\n")
        #expect(lines.element(at: 0) == #"{"frame":0,"time":0.000000000,"peak":[0.1,0.2],"lufs_m":null,"lufs_s":null,"lufs_i":null,"lra":null,"dbtp":[null,null]}"#)
        #expect(lines.element(at: 2) == #"{"frame":9600,"time":0.200000000,"peak":[0.5,1.0],"lufs_m":-23.000633,"lufs_s":-22.9,"lufs_i":-23.012,"lra":4.25,"dbtp":[-0.5,0.3]}"#)
    }

    @Test("CSV gives back every row's loudness bit for bit, and no loudness where there was none")
    func csvRoundTrip() throws {
        let table = try Self.read(Self.text(.csv), .csv)
        #expect(table.hasLoudness)
        #expect(table.channelNames == ["in_1", "in_2"])
        #expect(table.loudness == Self.rows.map(\.loudness))
        #expect(table.peaks == Self.rows.flatMap(\.peaks))
    }

    @Test("JSON Lines gives back every finite value bit for bit; −∞ comes back as NaN (JSON null)")
    func jsonRoundTrip() throws {
        let table = try Self.read(Self.text(.jsonl), .jsonl)
        #expect(table.hasLoudness)
        try #require(table.loudness.count >= 3, "loudness of \(table.loudness.count) rows, 3 written")
        #expect(table.loudness[0] == nil)
        #expect(table.loudness[2] == Self.rows[2].loudness)
        let quiet = try #require(table.loudness[1])
        #expect(quiet.momentary == -26.00797 && quiet.integrated.isNaN && quiet.truePeaks.element(at: 1)?.isNaN == true)
    }

    @Test("a stream without loudness reads as before: no loudness columns")
    func plainStream() throws {
        let table = try Self.read("frame,time,a\n0,0.000000000,0.5\n", .csv)
        #expect(!table.hasLoudness && table.loudness.isEmpty && table.channelCount == 1)
    }

    @Test("a CSV header with loudness columns that do not match its ports is refused")
    func mismatchedHeader() {
        #expect(throws: LevelStreamReadError("x: the loudness columns must be lufs_m,lufs_s,lufs_i,lra,dbtp_a after the channels")) {
            try Self.read("frame,time,a,lufs_m,lufs_s,lufs_i,lra,dbtp_b\n", .csv)
        }
    }

    @Test("a JSON line without the loudness that earlier lines had is refused, with its line number")
    func missingJSONLoudness() {
        let text = Self.text(.jsonl) + #"{"frame":14400,"time":0.3,"peak":[0.1,0.2]}"# + "\n"
        #expect(throws: LevelStreamReadError(#"x line 4: the loudness must be "lufs_m", "lufs_s", "lufs_i", "lra" and a "dbtp" array of 2 on every line, or on none"#)) {
            try Self.read(text, .jsonl)
        }
    }
}
