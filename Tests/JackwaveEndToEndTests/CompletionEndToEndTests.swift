import Foundation
import JackwaveTestSupport
import Testing

/// The generated shell completions, run in the shells they are for: a file option offers
/// directories and the files with its extensions, nothing else.
@Suite("Shell completions in their shells")
struct CompletionEndToEndTests {
    /// A directory holding a take, a FLAC in capitals, a level stream, a text file and a folder.
    static func directory() throws -> String {
        let dir = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/takes", withIntermediateDirectories: true)
        for name in ["a.wav", "B.FLAC", "levels.csv", "notes.txt"] {
            FileManager.default.createFile(atPath: dir + "/" + name, contents: Data())
        }
        return dir
    }

    /// `jackwave --completions SHELL` written to a file in `dir`.
    static func script(_ shell: String, in dir: String) throws -> String {
        let generated = try Run.jackwave(["--completions", shell], server: nil)
        guard generated.status == 0 else { throw TestFailure(generated.stderr) }
        let path = dir + "/takes/jackwave." + shell
        try generated.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("fish offers the sound files and folders after --record, and the level streams after --levels")
    func fishOffersFilesByExtension() throws {
        let dir = try Self.directory()
        let script = try Self.script("fish", in: dir)
        let asked = "source \(script); cd \(dir); complete -C 'jackwave --record '; echo ==; complete -C 'jackwave --levels '"
        let run = try Run.tool("/usr/bin/fish", ["--no-config", "-c", asked], server: nil)
        #expect(run.status == 0, "\(run.stderr)")
        let parts = run.stdout.components(separatedBy: "==\n").map { part in
            Set(part.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") })
        }
        #expect(parts.first == ["a.wav", "B.FLAC", "takes/"], "\(run.stdout)")
        #expect(parts.last == ["levels.csv", "takes/"], "\(run.stdout)")
    }

    @Test("bash offers the sound files and folders after --record, and the level streams after --levels")
    func bashOffersFilesByExtension() throws {
        let dir = try Self.directory()
        let script = try Self.script("bash", in: dir)
        let asked = """
            source \(script); cd \(dir)
            for line in 'jackwave --record ' 'jackwave --levels '; do
                COMP_LINE=$line; COMP_POINT=${#line}; COMPREPLY=()
                _jackwave 2>/dev/null; printf '%s\\n' "${COMPREPLY[@]}" --
            done
            """
        let run = try Run.tool("/bin/bash", ["--norc", "-c", asked], server: nil)
        #expect(run.status == 0, "\(run.stderr)")
        let parts = run.stdout.components(separatedBy: "--\n").map { Set($0.split(separator: "\n").map(String.init)) }
        #expect(parts.first == ["a.wav", "B.FLAC", "takes"], "\(run.stdout)")
        #expect(parts.dropFirst().first == ["levels.csv", "takes"], "\(run.stdout)")
    }
}
