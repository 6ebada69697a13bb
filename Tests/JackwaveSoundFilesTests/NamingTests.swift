import Foundation
import Glibc
import JackwaveSoundFiles
import Testing

/// `--name-pattern`, the files it names (made exclusively, folders and suffixes), and
/// `--overlap`'s spans.
@Suite("Clock naming and overlap")
struct NamingTests {
    let dir: String = {
        let path = NSTemporaryDirectory() + "jackwave-naming-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @Test("every specifier fills in from the instant in its zone")
    func specifiers() throws {
        let pattern = try NamePattern.parse("%Y/%y-%m-%d_%j/%H.%M.%S %u %a %z %Z %s %%.flac")
        let instant = WallClockTime(seconds: 1_741_960_805, nanoseconds: 999_000_000)  // 2025-03-14 14:00:05 UTC, a Friday
        #expect(pattern.path(for: instant, zone: UTCRules()) == "2025/25-03-14_073/14.00.05 5 Fri +0000 UTC 1741960805 %.flac")
        let india = TransitionTableRules([.init(since: 0, offset: 19800, abbreviation: "IST")])
        #expect(try NamePattern.parse("%H%M%z-%Z.ogg").path(for: instant, zone: india) == "1930+0530-IST.ogg")
    }

    @Test("patterns that could escape the folder, hold unknown specifiers or name no sound file are refused", arguments: [
        "/abs/%H.flac", "../%H.flac", "a/../%H.flac", "a//%H.flac", "%H.txt", "%H", "%q.flac", "%H%.flac", "end%", "", "./x.flac",
    ])
    func refused(text: String) {
        #expect(throws: FileChoiceError.self) { try NamePattern.parse(text) }
    }

    @Test("a piece's folders are made as needed, and a name that exists gets _2, _3: nothing is overwritten")
    func exclusive() throws {
        let first = try ExclusiveFile.create(under: dir, relative: "2025-03-14/1400.flac")
        #expect(first.relativePath == "2025-03-14/1400.flac" && first.madeFolders == ["2025-03-14"])
        #expect(write(first.descriptor, "first", 5) == 5)
        close(first.descriptor)
        let second = try ExclusiveFile.create(under: dir, relative: "2025-03-14/1400.flac")
        let third = try ExclusiveFile.create(under: dir, relative: "2025-03-14/1400.flac")
        close(second.descriptor)
        close(third.descriptor)
        #expect(second.relativePath == "2025-03-14/1400_2.flac" && second.madeFolders.isEmpty)
        #expect(third.path == dir + "/2025-03-14/1400_3.flac")
        #expect(try String(contentsOfFile: first.path, encoding: .utf8) == "first")
    }

    @Test("a link where a folder or the file would go is refused, never followed")
    func links() throws {
        let outside = dir + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/day", withDestinationPath: outside)
        #expect(throws: SoundFileError.self) { try ExclusiveFile.create(under: dir, relative: "day/1400.flac") }
        try FileManager.default.createSymbolicLink(atPath: dir + "/1500.flac", withDestinationPath: outside + "/victim.flac")
        let made = try ExclusiveFile.create(under: dir, relative: "1500.flac")
        close(made.descriptor)
        #expect(made.relativePath == "1500_2.flac")
        #expect(!FileManager.default.fileExists(atPath: outside + "/victim.flac"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    @Test("a claimed file takes a sound file's frames through its own descriptor")
    func soundFileOnClaim() throws {
        let claimed = try ExclusiveFile.create(under: dir, relative: "x/take.flac")
        let format = try #require(SoundFormat.named("flac"))
        let file = try SoundFile(writingTo: claimed, format: try #require(format.formatWord(depth: .int16)), channels: 1, sampleRate: 48000)
        let ramp = (0..<4800).map { Float($0) / 8192 - 0.3 }
        #expect(ramp.withUnsafeBufferPointer { file.write($0.baseAddress!, count: 4800) } == 4800)
        #expect(file.close() == nil)
        #expect(try SoundFile(readingFrom: claimed.path).frames == 4800)
    }

    @Test("--overlap: each file holds its piece and O frames each side; the 2 × O frames around each cut are in both files")
    func overlap() {
        let cuts: [Int64] = [0, 1000, 2000, 3000]
        let end: Int64 = 3500, o: Int64 = 100
        #expect((0..<4).map { OverlapSpans.file(piece: $0, cuts: cuts, overlap: o, end: end) } == [0..<1100, 900..<2100, 1900..<3100, 2900..<3500])
        #expect((1..<4).map { OverlapSpans.doubled(atCut: $0, cuts: cuts, overlap: o, end: end) } == [900..<1100, 1900..<2100, 2900..<3100])
        // A neighbour shorter than the overlap (after a clock step) limits it at its far cut.
        let short: [Int64] = [0, 1000, 1050, 2000]
        #expect(OverlapSpans.file(piece: 0, cuts: short, overlap: o, end: 3000) == 0..<1050)
        #expect(OverlapSpans.doubled(atCut: 2, cuts: short, overlap: o, end: 3000) == 1000..<1150)
        // Every frame of the recording is in one file or in two: the pieces still join.
        for frame in Int64(0)..<end {
            let files = (0..<4).filter { OverlapSpans.file(piece: $0, cuts: cuts, overlap: o, end: end).contains(frame) }.count
            let nearCut = cuts.dropFirst().contains { frame >= $0 - o && frame < $0 + o }
            #expect(files == (nearCut ? 2 : 1), "frame \(frame)")
        }
    }
}
