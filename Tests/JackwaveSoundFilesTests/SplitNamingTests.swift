import Foundation
import JackwaveSoundFiles
import Testing

/// Where a split or numbered recording's pieces are looked for.
@Suite("Split naming")
struct SplitNamingTests {
    @Test("a one-letter name in the current directory is looked up (Foundation's path splitting traps on it)")
    func oneLetterName() {
        #expect(SplitNaming.existingPieces(of: "t.wav").allSatisfy { $0.hasPrefix("t-") })
    }

    @Test("pieces are found and named in a directory given by path, and at the root")
    func directories() throws {
        let dir = NSTemporaryDirectory() + "jackwave-split-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: dir + "/x-002.wav", contents: Data())
        FileManager.default.createFile(atPath: dir + "/x-note.wav", contents: Data())
        #expect(SplitNaming.existingPieces(of: dir + "/x.wav") == [dir + "/x-002.wav"])
        #expect(SplitNaming.existingPieces(of: "/jackwave-no-such-take.wav").isEmpty)
    }

    @Test("a restart goes on after the highest piece there is, gaps and a thousand included")
    func nextPiece() throws {
        let dir = NSTemporaryDirectory() + "jackwave-next-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        #expect(SplitNaming.nextPiece(after: dir + "/svc.wav") == 1)
        for name in ["svc-001.wav", "svc-003.wav", "svc-note.wav", "other-009.wav", "svc-002.flac"] {
            FileManager.default.createFile(atPath: dir + "/" + name, contents: Data())
        }
        #expect(SplitNaming.nextPiece(after: dir + "/svc.wav") == 4)
        FileManager.default.createFile(atPath: dir + "/svc-1000.wav", contents: Data())
        #expect(SplitNaming.nextPiece(after: dir + "/svc.wav") == 1001)
    }
}
