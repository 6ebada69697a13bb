import Foundation
import JackwaveDSP
import JackwaveLevelStream
import Testing

/// A level stream file is read line by line through a fixed buffer, and what is kept of it
/// has a bound: bad files cost a bounded amount of memory, whatever their size.
@Suite("Bounded reading of level streams")
struct BoundedReadingTests {
    let dir: String = {
        let path = NSTemporaryDirectory() + "jackwave-bounded-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func write(_ text: String, _ name: String) throws -> String {
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func failure(_ body: () throws(LevelStreamReadError) -> LevelStreamTable) -> String? {
        do throws(LevelStreamReadError) {
            _ = try body()
            return nil
        } catch {
            return error.message
        }
    }

    @Test("a file read through the buffer gives the table the same text in memory gives, across chunk edges, CRLF and no final newline",
          arguments: [LevelStreamFormat.csv, .jsonl])
    func fileMatchesMemory(format: LevelStreamFormat) throws {
        let formatter = LevelStreamFormatter(format: format, sampleRate: 48000, channelNames: ["in_1", "in_2"])
        var text = formatter.header
        // ~200 000 rows: several 64 KiB chunks, rows cut at every place across them.
        for i in 0..<200_000 {
            formatter.append(LevelRow(frame: Int64(i) * 256, peaks: [Float(i % 1000) / 1000, Float(i % 7) / 7]), to: &text)
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let crlf = lines.enumerated().map { $0.offset % 3 == 0 ? $0.element + "\r" : String($0.element) }.joined(separator: "\n")
        let trimmed = String(crlf.dropLast(crlf.hasSuffix("\n") ? 1 : 0))
        let path = try write(trimmed, "stream." + (format == .csv ? "csv" : "jsonl"))
        let fromFile = try LevelStreamReader.read(path: path)
        let fromMemory = try LevelStreamReader.parse(TextBytes(Data(text.utf8)), format: format, path: path)
        #expect(fromFile == fromMemory)
        #expect(fromFile.rowCount == 200_000)
    }

    @Test("a line longer than 1 MiB is refused with its number; a 1 GB sparse file with no newline in its gigabyte fails at once")
    func longLine() throws {
        let path = try write("frame,time,in_1\n0,0.0,0.5\n", "sparse.csv")
        #expect(truncate(path, 1 << 30) == 0)
        let before = try #require(Self.bytesRead(), "/proc/self/io has no rchar")
        #expect(failure { () throws(LevelStreamReadError) in try LevelStreamReader.read(path: path) }
                == "\(path) line 3: longer than 1048576 bytes, which no level stream's line is")
        // At once: the reader stops within a few MiB of the line's start, not after the
        // gigabyte. Counted in bytes read (the whole process's, so other tests running
        // beside this one add theirs: 256 MiB is far above them and far below 1 GiB).
        let read = try #require(Self.bytesRead()) - before
        #expect(read < 256 << 20, "\(read) bytes read")
    }

    /// The bytes this process has read so far (`rchar` in /proc/self/io).
    static func bytesRead() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("rchar:") }
            .flatMap { Int($0.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)) }
    }

    @Test("a FIFO named .csv is refused at once, never waited on")
    func fifo() throws {
        let path = dir + "/pipe.csv"
        #expect(mkfifo(path, 0o644) == 0)
        #expect(failure { () throws(LevelStreamReadError) in try LevelStreamReader.read(path: path) }
                == "\(path): not a regular file (a FIFO, a socket or a device); jackwave reads only plain files")
    }

    @Test("a header of 200,000 columns, or a JSON row of 200,000 peaks, is refused before a table is sized by it")
    func tooManyChannels() throws {
        let csv = try write("frame,time," + Array(repeating: "c", count: 200_000).joined(separator: ",") + "\n", "wide.csv")
        #expect(failure { () throws(LevelStreamReadError) in try LevelStreamReader.read(path: csv) }
                == "\(csv) line 1: 200000 channels; a level stream has at most 1024")
        let peaks = Array(repeating: "0.5", count: 200_000).joined(separator: ",")
        let jsonl = try write("{\"frame\":0,\"time\":0,\"peak\":[\(peaks)]}\n", "wide.jsonl")
        #expect(failure { () throws(LevelStreamReadError) in try LevelStreamReader.read(path: jsonl) }
                == "\(jsonl) line 1: 200000 channels; a level stream has at most 1024")
    }

    @Test("with a bound on peaks kept, a long stream's rows merge in pairs: every row counted, the loudest peak kept, times in order")
    func mergedRows() throws {
        let formatter = LevelStreamFormatter(format: .csv, sampleRate: 48000, channelNames: ["in_1", "in_2"])
        var text = formatter.header
        for i in 0..<100_000 {
            let spike: Float = i == 77_777 ? 0.9 : 0.1
            formatter.append(LevelRow(frame: Int64(i) * 480, peaks: [spike, i % 2 == 0 ? .nan : 0.2]), to: &text)
        }
        let table = try LevelStreamReader.parse(TextBytes(Data(text.utf8)), format: .csv, path: "x", maximumPeaks: 4096)
        #expect(table.rowsRead == 100_000)
        #expect(table.rowCount <= 2048 && table.rowCount >= 1024)
        #expect(table.rowsPerKeptRow == 64)
        #expect(table.frames.first == 0 && table.times.first == 0)
        #expect(zip(table.times, table.times.dropFirst()).allSatisfy { $0 < $1 })
        // The spike survives in the kept row that stands for row 77 777; no NaN wins over a level.
        let keeper = 77_777 / table.rowsPerKeptRow
        try #require(keeper < table.rowCount, "row \(keeper) of \(table.rowCount), \(table.rowsPerKeptRow) rows to a kept row")
        #expect(table.peaks(ofRow: keeper).first == 0.9)
        #expect((0..<table.rowCount).allSatisfy { table.peaks(ofRow: $0).last == 0.2 })
        #expect(table.frames[keeper] == Int64(keeper * table.rowsPerKeptRow) * 480)
    }
}
