import Foundation
import JackwaveSoundFiles
import Testing

/// How a recording's files are named, and where a numbered recording's earlier files are
/// looked for.
@Suite("File naming")
struct FileNamingTests {
    @Test("pieces, takes and takes in pieces are numbered with three digits, then more")
    func names() {
        #expect(FileNaming(base: "take.wav", scheme: .single).path(take: 0, piece: 1) == "take.wav")
        #expect(FileNaming(base: "take.wav", scheme: .pieces).path(take: 0, piece: 1) == "take-001.wav")
        #expect(FileNaming(base: "dir.x/take.flac", scheme: .pieces).path(take: 0, piece: 42) == "dir.x/take-042.flac")
        #expect(FileNaming(base: "take", scheme: .pieces).path(take: 0, piece: 1000) == "take-1000")
        #expect(FileNaming(base: "t.wav", scheme: .takes).path(take: 3, piece: 1) == "t-003.wav")
        #expect(FileNaming(base: "t.wav", scheme: .takePieces).path(take: 3, piece: 2) == "t-003-002.wav")
    }

    @Test("a picture beside a file takes the file's numbers")
    func companions() {
        #expect(FileNaming(base: "t.wav", scheme: .takePieces).companion("pics/t.png", take: 3, piece: 2) == "pics/t-003-002.png")
        #expect(FileNaming(base: "t.wav", scheme: .single).companion("t.svg", take: 0, piece: 1) == "t.svg")
    }

    @Test("a one-letter name in the current directory is looked up (Foundation's path splitting traps on it)")
    func oneLetterName() {
        #expect(FileNaming(base: "t.wav", scheme: .pieces).existingFiles().allSatisfy { $0.hasPrefix("t-") })
    }

    @Test("each scheme finds only names of its own shape, in a directory given by path, and at the root")
    func existing() throws {
        let dir = NSTemporaryDirectory() + "jackwave-naming-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for name in ["x-002.wav", "x-note.wav", "x-004-001.wav", "x-01.wav", "x-003.flac"] {
            FileManager.default.createFile(atPath: dir + "/" + name, contents: Data())
        }
        #expect(FileNaming(base: dir + "/x.wav", scheme: .pieces).existingFiles() == [dir + "/x-002.wav"])
        #expect(FileNaming(base: dir + "/x.wav", scheme: .pieces).firstFreeNumber() == 3)
        #expect(FileNaming(base: dir + "/x.wav", scheme: .takePieces).existingFiles() == [dir + "/x-004-001.wav"])
        #expect(FileNaming(base: dir + "/x.wav", scheme: .takePieces).firstNumbers() == (take: 5, piece: 1))
        #expect(FileNaming(base: "/jackwave-no-such-take.wav", scheme: .pieces).existingFiles().isEmpty)
        #expect(FileNaming(base: "/jackwave-no-such-take.wav", scheme: .takes).firstFreeNumber() == 1)
    }

    @Test("a planted name numbered Int.max is passed over, and numbering goes on after the highest usable one")
    func plantedMaximum() throws {
        let dir = NSTemporaryDirectory() + "jackwave-naming-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for name in ["take-9223372036854775807.wav", "take-007.wav", "take-1000000000.wav", "take-99999999999999999999999.wav"] {
            FileManager.default.createFile(atPath: dir + "/" + name, contents: Data())
        }
        let naming = FileNaming(base: dir + "/take.wav", scheme: .takes)
        #expect(naming.firstFreeNumber() == 8)
        #expect(naming.passedOver() == [dir + "/take-1000000000.wav", dir + "/take-9223372036854775807.wav",
                                        dir + "/take-99999999999999999999999.wav"])
        #expect(naming.existingFiles() == [dir + "/take-007.wav"])
    }

    @Test("a name at the bound is numbered after, and one whose piece number is beyond it is passed over")
    func plantedBound() {
        let found = FileNaming.numbers(in: ["t-999999999.wav", "t-004-9223372036854775807.wav", "t-005-002.wav"],
                                       prefix: "t-", ext: ".wav", fields: 2)
        #expect(found.numbered.map(\.number) == [5])
        #expect(found.passedOver == ["t-004-9223372036854775807.wav"])
        let pieces = FileNaming.numbers(in: ["t-999999999.wav"], prefix: "t-", ext: ".wav", fields: 1)
        #expect(pieces.numbered.map(\.number) == [FileNaming.maximumNumber])
    }
}
