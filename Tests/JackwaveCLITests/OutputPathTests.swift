import Foundation
@testable import JackwaveCLI
import JackwaveHost
@testable import JackwaveRunSupport
import Testing

/// `OutputPath.canonical`: two spellings of one output file give one path.
@Suite("Output paths")
struct OutputPathTests {
    /// A fresh directory holding `sub/` and `link` → `sub`, resolved itself (the temporary
    /// directory may sit behind a symbolic link).
    func scratch() throws -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("jw-outputpath-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: base.appendingPathComponent("link").path, withDestinationPath: "sub")
        return base.resolvingSymlinksInPath().path
    }

    @Test("a path through '.', '..' and a symbolic link to the same directory is the same file")
    func spellingsOfOneFile() throws {
        let dir = try scratch()
        #expect(OutputPath.canonical(dir + "/link/../sub/./take.wav") == dir + "/sub/take.wav")
        #expect(OutputPath.canonical(dir + "/link/take.wav") == dir + "/sub/take.wav")
    }

    @Test("a relative path is made absolute against the working directory")
    func relative() throws {
        let cwd = FileManager.default.currentDirectoryPath
        let real = URL(fileURLWithPath: cwd).resolvingSymlinksInPath().path
        #expect(OutputPath.canonical("take.wav") == real + "/take.wav")
    }

    @Test("a directory that does not exist is kept as written, and different names stay different")
    func missingDirectory() {
        #expect(OutputPath.canonical("/no-such-dir-jw/a.wav") == "/no-such-dir-jw/a.wav")
        #expect(OutputPath.canonical("/no-such-dir-jw/a.wav") != OutputPath.canonical("/no-such-dir-jw/b.wav"))
    }
}
