import JackwaveLevelStream
import Foundation
import JackwaveDSP
@testable import JackwaveLevelStream
import JackwaveTestSupport
import JackwaveVocabulary
import Testing

private let formatter = LevelStreamFormatter(format: .csv, sampleRate: 48000, channelNames: ["in_1"])

@Suite("LevelStreamWriter")
struct LevelStreamWriterTests {
    @Test("The writer creates the file with the header, then appends rows on flush")
    func writesHeaderAndRows() throws {
        let path = NSTemporaryDirectory() + "jackwave-writer-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try LevelStreamWriter(path: path, formatter: formatter)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "frame,time,in_1\n")
        writer.append([LevelRow(frame: 0, peaks: [0.5])])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "frame,time,in_1\n")   // not yet flushed
        #expect(writer.flush() == nil)
        #expect(writer.close() == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "frame,time,in_1\n0,0.000000000,0.5\n")
    }

    @Test("A full disk is a one-line failure naming the stream")
    func fullDiskFails() {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        #expect {
            _ = try LevelStreamWriter(descriptor: full, ownsDescriptor: true, displayName: "/dev/full", formatter: formatter)
        } throws: { error in
            let message = (error as? LevelStreamError)?.message.plain ?? ""
            return message.contains("/dev/full") && message.contains("No space left") && !message.contains("\n")
        }
    }

    @Test("Live, a full disk never stops the caller: the failure comes back as one report and one line, and rows after it are not written")
    func liveFullDiskIsReported() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0)
        let writer = try LevelStreamWriter(descriptor: full, ownsDescriptor: true, displayName: "/dev/full", formatter: formatter,
                                           queued: true)
        writer.append([LevelRow(frame: 0, peaks: [0.5])])
        writer.flush()
        writer.close()
        #expect(writer.failure == "levels: writing /dev/full failed: No space left on device")
        #expect(writer.takeReports() == [.failed("No space left on device")])
        writer.append([LevelRow(frame: 256, peaks: [0.25])])
        #expect(writer.flush() == writer.failure)
        #expect(writer.takeReports().isEmpty)
    }

    @Test("A device is never a level stream: /dev/full is refused as not a regular file, in one line")
    func deviceRefused() {
        #expect {
            _ = try LevelStreamWriter(path: "/dev/full", formatter: formatter, policy: .replace)
        } throws: { error in
            let message = (error as? LevelStreamError)?.message ?? Phrase(verbatim: "")
            return message == "\(setting: .levels) /dev/full: is not a regular file (jackwave writes only plain files)"
        }
    }

    @Test("A stream that cannot be created is a one-line failure")
    func cannotCreate() {
        #expect(throws: LevelStreamError.self) {
            _ = try LevelStreamWriter(path: "/nonexistent-dir/levels.csv", formatter: formatter)
        }
    }
}
