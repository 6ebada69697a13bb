import Foundation
@testable import JackwaveRecording
@testable import JackwaveRunSupport
import JackwaveSoundFiles
import Synchronization
import JackwaveTestSupport
import Testing

/// A cut asked for from outside (`/jackwave/split`), without a server: where the writer
/// starts the next file, and what each file is told to its observer.
@Suite("Recording cuts")
struct RecordingCutTests {
    let dir: String = {
        let path = NSTemporaryDirectory() + "jackwave-cuts-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Counts frames 0, 1, 2, … (one channel) into `files`, `block` frames a write.
    func write(_ files: RecordingFiles, from start: Int, count: Int, block: Int) {
        var frame = start
        while frame < start + count {
            let n = min(block, start + count - frame)
            let samples = (frame..<(frame + n)).map { Float($0) / 1_000_000 }
            #expect(samples.withUnsafeBufferPointer { files.write($0.baseAddress!, count: n) })
            frame += n
        }
    }

    /// Records what the files tell their observer: opened at (timeline frame), closed with
    /// (frames, end frame, ok).
    final class Log: RecordingFilesObserver, @unchecked Sendable {
        let lines = Mutex<[String]>([])
        func fileStarted(_ file: RecordedFile) {
            lines.withLock { $0.append("open \(URL(fileURLWithPath: file.path).lastPathComponent) \(file.firstFrame)") }
        }
        func fileClosed(_ file: RecordedFile) {
            lines.withLock { $0.append("close \(URL(fileURLWithPath: file.path).lastPathComponent) \(file.frames) \(file.endFrame) \(file.ok)") }
        }
    }

    func numberedSpec(_ name: String, split: Int64? = nil, armed: Bool = false) throws -> RecordingSpec {
        RecordingSpec(path: dir + "/" + name, format: try #require(SoundFormat.named("wav")), depth: .float, channels: 1,
                      inputRate: 48000, fileRate: 48000, dither: false, splitFrames: split,
                      naming: FileNaming(base: dir + "/" + name, armed: armed, cut: true))
    }

    @Test("a cut inside a write starts the next numbered file at exactly that frame")
    func cutInsideAWrite() throws {
        let log = Log()
        let files = RecordingFiles(spec: try numberedSpec("cut.wav"), observer: log)
        files.requestCut(atStreamFrame: 1000)
        write(files, from: 0, count: 2500, block: 256)
        #expect(files.close())
        #expect(try frameNumbers(dir + "/cut-001.wav") == Array(0..<1000))
        #expect(try frameNumbers(dir + "/cut-002.wav") == Array(1000..<2500))
        #expect(log.lines.withLock { $0 } == ["open cut-001.wav 0", "close cut-001.wav 1000 1000 true",
                                             "open cut-002.wav 1000", "close cut-002.wav 1500 2500 true"])
    }

    @Test("a cut at a frame already written cuts at the next frame written, losing and repeating nothing, and says where")
    func lateCut() throws {
        let messages = MessageQueue()
        let files = RecordingFiles(spec: try numberedSpec("late.wav"), observer: nil, messages: messages)
        write(files, from: 0, count: 700, block: 700)
        files.requestCut(atStreamFrame: 500)
        write(files, from: 700, count: 300, block: 300)
        #expect(files.close())
        #expect(try frameNumbers(dir + "/late-001.wav") == Array(0..<700))
        #expect(try frameNumbers(dir + "/late-002.wav") == Array(700..<1000))
        #expect(messages.drain() == ["split: frame 500 was already written when the cut came to the writer; it cut at frame 700 instead, 200 frames later"])
    }

    @Test("after a cut, --split's next piece comes a whole split length later")
    func cutThenSplit() throws {
        let files = RecordingFiles(spec: try numberedSpec("both.wav", split: 1000), observer: nil)
        files.requestCut(atStreamFrame: 300)
        write(files, from: 0, count: 1500, block: 128)
        #expect(files.close())
        #expect(try frameNumbers(dir + "/both-001.wav") == Array(0..<300))
        #expect(try frameNumbers(dir + "/both-002.wav") == Array(300..<1300))
        #expect(try frameNumbers(dir + "/both-003.wav") == Array(1300..<1500))
    }

    @Test("numbered files go on after the highest number that exists, never over an earlier file")
    func numbersOnAfterExistingFiles() throws {
        for name in ["again-001.wav", "again-003.wav", "again-x.wav", "again-0002.txt"] {
            FileManager.default.createFile(atPath: dir + "/" + name, contents: Data("keep".utf8))
        }
        let files = RecordingFiles(spec: try numberedSpec("again.wav"), observer: nil)
        write(files, from: 0, count: 10, block: 10)
        #expect(files.close())
        #expect(files.files.first == dir + "/again-004.wav" && files.files.count == 1)
        #expect(try String(contentsOfFile: dir + "/again-001.wav", encoding: .utf8) == "keep")
    }

    @Test("a take cut by a split goes on in its next piece: take-001-001, take-001-002, then take 2 from piece 1")
    func takePieces() throws {
        let log = Log()
        let files = RecordingFiles(spec: try numberedSpec("t.wav", split: 100, armed: true), observer: log)
        files.beginSegment(atStreamFrame: 1000)
        #expect(files.startTake() == 1)
        write(files, from: 0, count: 150, block: 64)
        #expect(files.endTake())
        files.beginSegment(atStreamFrame: 5000)
        #expect(files.startTake() == 2)
        write(files, from: 150, count: 10, block: 10)
        #expect(files.endTake())
        #expect(try frameNumbers(dir + "/t-001-001.wav") == Array(0..<100))
        #expect(try frameNumbers(dir + "/t-001-002.wav") == Array(100..<150))
        #expect(try frameNumbers(dir + "/t-002-001.wav") == Array(150..<160))
        #expect(log.lines.withLock { $0 } == ["open t-001-001.wav 1000", "close t-001-001.wav 100 1100 true",
                                             "open t-001-002.wav 1100", "close t-001-002.wav 50 1150 true",
                                             "open t-002-001.wav 5000", "close t-002-001.wav 10 5010 true"])
    }
}
