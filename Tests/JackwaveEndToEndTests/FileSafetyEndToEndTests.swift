import Foundation
import JackwaveTestSupport
import Testing

/// Files are created, never hijacked: a link at a target is never followed, a live writer's
/// file is never taken over (`CreatedFile`).
@Suite("Files are created, never hijacked", .serialized)
struct FileSafetyEndToEndTests {
    let dir = temporaryDirectory()

    /// A fresh folder for one case.
    func caseDirectory() throws -> String {
        let path = dir + "/\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a dangling symbolic link at the target is refused (exit 2, one line), with and without --force; its target is never created",
          arguments: ServerKind.allCases)
    func linkAtTarget(on kind: ServerKind) throws {
        let server = try kind.start()
        let folder = try caseDirectory()
        let link = folder + "/take.wav", victim = folder + "/victim.wav"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        for force in [false, true] {
            let run = try Run.jackwave(["--record", link, "-d", "1"] + (force ? ["--force"] : []), server: server.name)
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr == "jackwave: error: --record \(link): is a symbolic link; jackwave never writes through one\n")
            #expect(!FileManager.default.fileExists(atPath: victim))
        }
        // The other outputs are created the same way.
        for option in ["--levels", "--events"] {
            let out = folder + "/out." + (option == "--levels" ? "csv" : "jsonl")
            try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: victim)
            let run = try Run.jackwave(["--record", folder + "/other.wav", option, out, "--force", "-d", "0.5"], server: server.name)
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains("is a symbolic link"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: victim))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["out.csv", "out.jsonl", "take.wav"])
    }

    @Test("a symbolic link planted at piece 2's name during --split is passed over, never followed: the run goes on in piece 3, says so, and piece 1 is whole",
          arguments: ServerKind.allCases)
    func linkAsLaterPiece(on kind: ServerKind) throws {
        let server = try kind.start()
        let folder = try caseDirectory()
        let base = folder + "/day.wav", victim = folder + "/victim.wav"
        let piece = { (n: Int) in folder + "/day-00\(n).wav" }
        let run = try Run.start(Run.jackwave, ["--record", base, "-c", "1", "--manual", "--split", "1", "-d", "3", "--no-meter"],
                                server: server.name)
        defer { run.signal(SIGKILL) }
        // Planted while piece 1 is written, before the writer gets to piece 2.
        #expect(run.waitForRecordedFrames(piece(1), moreThan: 4800), "\(run.stderrSoFar)")
        try FileManager.default.createSymbolicLink(atPath: piece(2), withDestinationPath: victim)
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: victim), "\(out.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: piece(2))) == victim)
        #expect(out.stderr.contains("\(piece(2)) exists (this run did not write it): going on in day-003.wav"), "\(out.stderr)")
        #expect(try [1, 3, 4].map { try Recording(piece($0)).frames } == [server.sampleRate, server.sampleRate, server.sampleRate])
        #expect(out.stderr.contains("(3 files)"), "\(out.stderr)")
    }

    @Test("a second jackwave on a file being written fails at once in one line and touches nothing of it, with or without --force",
          arguments: ServerKind.allCases)
    func twoInstancesOneName(on kind: ServerKind) throws {
        let server = try kind.start()
        let folder = try caseDirectory()
        let path = folder + "/shared.wav"
        let first = try Run.start(Run.jackwave, ["--record", path, "-c", "1", "--manual", "-n", "first"], server: server.name)
        defer { first.signal(SIGKILL); _ = first.finish(timeout: 5) }
        #expect(first.waitForRecordedFrames(path, moreThan: 4800), "\(first.stderrSoFar)")
        // Not "file exists (use --force …)": --force would not help, and the line says why.
        let reason = "is being written by another jackwave (its file is locked); nothing of it was touched"
        for force in [false, true] {
            let before = Recording.framesSoFar(path)
            let second = try Run.jackwave(["--record", path, "-c", "1", "--manual", "-d", "1", "-n", "second"] + (force ? ["--force"] : []),
                                          server: server.name)
            #expect(second.status == 2, "\(second.stderr)")
            #expect(second.stderr == "jackwave: error: --record \(path): \(reason)\n")
            // The first goes on writing its file from where it was.
            #expect(first.waitForRecordedFrames(path, moreThan: before + 4800), "\(first.stderrSoFar)")
        }
        first.signal(SIGINT)
        let out = first.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        let frames = try Recording(path).frames
        #expect(out.stderr.contains("\(frames) frames"), "\(out.stderr)")
    }
}
