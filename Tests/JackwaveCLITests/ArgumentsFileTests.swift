import Foundation
@testable import JackwaveCLI
import JackwaveHost
import JackwaveRunSupport
import Testing

/// `--arguments FILE`: a service's command line, one argument per line, no quoting.
@Suite("Arguments files")
struct ArgumentsFileTests {
    func parse(_ text: String) throws(UsageError) -> [String] { try ArgumentsFile.parse(Array(text.utf8), path: "x.args") }

    @Test("each line is one argument as written: blanks kept, no quoting; empty lines and # comments skipped; CRLF taken")
    func lines() throws {
        let text = "# studio\n--record\nstudio take.flac\n\n--on-close\r\nflac -s \"$1\" --delete-input-file\n--split\n3600"
        #expect(try parse(text) == ["--record", "studio take.flac", "--on-close", "flac -s \"$1\" --delete-input-file", "--split", "3600"])
        #expect(try parse("") == [])
    }

    @Test("a UTF-8 byte-order mark, blank lines and lines whose first non-blank is # are skipped")
    func editorsMarks() throws {
        #expect(try parse("\u{FEFF}--tone\n440\n  \n\t\n  # indented\n\t#tabbed\n-d\n 1") == ["--tone", "440", "-d", " 1"])
        #expect(try parse("\u{FEFF}") == [])
    }

    @Test("a file naming --arguments again, text that is not UTF-8, or too many arguments is refused in one line")
    func refusals() {
        #expect(throws: UsageError("--arguments x.args line 2: an arguments file cannot name another")) { try parse("-c\n--arguments\ny") }
        #expect(throws: UsageError("--arguments x.args line 1: not UTF-8 text")) {
            try ArgumentsFile.parse([0xff, 0xfe], path: "x.args")
        }
        #expect(throws: UsageError("--arguments x.args: more than 1024 arguments")) {
            try parse(Array(repeating: "-c", count: 1025).joined(separator: "\n"))
        }
    }

    @Test("the file must be a plain file of at most 64 KiB")
    func files() throws {
        let dir = NSTemporaryDirectory() + "jackwave-args-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/fifo.args", 0o644) == 0)
        #expect(throws: UsageError("--arguments \(dir)/fifo.args: not a regular file")) { try ArgumentsFile.read(dir + "/fifo.args") }
        try Data(repeating: 0x41, count: 70_000).write(to: URL(fileURLWithPath: dir + "/big.args"))
        #expect(throws: UsageError("--arguments \(dir)/big.args: 70000 bytes; an arguments file holds at most 65536")) {
            try ArgumentsFile.read(dir + "/big.args")
        }
        try "--tone\n440\n--volume\n-6dB\n".write(toFile: dir + "/tone.args", atomically: false, encoding: .utf8)
        #expect(chmod(dir + "/tone.args", 0o644) == 0)
        #expect(try ArgumentsFile.read(dir + "/tone.args") == ["--tone", "440", "--volume", "-6dB"])
    }
}
