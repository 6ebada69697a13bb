import Foundation
import JackwaveHost
import JackwaveSoundFiles
import Synchronization
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

    func frames(_ path: String) throws -> [Int] {
        let file = try SoundFile(readingFrom: path)
        var buffer = [Float](repeating: 0, count: Int(file.frames))
        _ = buffer.withUnsafeMutableBufferPointer { file.read(into: $0.baseAddress!, count: $0.count) }
        return buffer.map { Int(($0 * 1_000_000).rounded()) }
    }

    /// Records what the files tell their observer.
    final class Log: RecordingFilesObserver, @unchecked Sendable {
        let lines = Mutex<[String]>([])
        func fileStarted(path: String, atFileFrame frame: Int64) {
            lines.withLock { $0.append("open \(URL(fileURLWithPath: path).lastPathComponent) \(frame)") }
        }
        func fileClosed(path: String, frames: Int64, endFileFrame: Int64, ok: Bool) {
            lines.withLock { $0.append("close \(URL(fileURLWithPath: path).lastPathComponent) \(frames) \(endFileFrame) \(ok)") }
        }
    }

    func numberedSpec(_ name: String, split: Int64? = nil) -> RecordingSpec {
        var spec = RecordingSpec(path: dir + "/" + name, format: SoundFormat.named("wav")!, depth: .float, channels: 1,
                                 inputRate: 48000, fileRate: 48000, dither: false, splitFrames: split)
        spec.alwaysNumbered = true
        return spec
    }

    @Test("a cut inside a write starts the next numbered file at exactly that frame")
    func cutInsideAWrite() throws {
        let files = try RecordingFiles(spec: numberedSpec("cut.wav"))
        let log = Log()
        files.observer = log
        files.cutRequest.store(1000, ordering: .relaxed)
        write(files, from: 0, count: 2500, block: 256)
        #expect(files.close())
        #expect(try frames(dir + "/cut-001.wav") == Array(0..<1000))
        #expect(try frames(dir + "/cut-002.wav") == Array(1000..<2500))
        #expect(log.lines.withLock { $0 } == ["open cut-001.wav 0", "close cut-001.wav 1000 1000 true",
                                             "open cut-002.wav 1000", "close cut-002.wav 1500 2500 true"])
        #expect(files.cutRequest.load(ordering: .relaxed) == -1)
    }

    @Test("a cut at a frame already written cuts at the next frame written, losing and repeating nothing")
    func lateCut() throws {
        let files = try RecordingFiles(spec: numberedSpec("late.wav"))
        write(files, from: 0, count: 700, block: 700)
        files.cutRequest.store(500, ordering: .relaxed)
        write(files, from: 700, count: 300, block: 300)
        #expect(files.close())
        #expect(try frames(dir + "/late-001.wav") == Array(0..<700))
        #expect(try frames(dir + "/late-002.wav") == Array(700..<1000))
    }

    @Test("after a cut, --split's next piece comes a whole split length later")
    func cutThenSplit() throws {
        let files = try RecordingFiles(spec: numberedSpec("both.wav", split: 1000))
        files.cutRequest.store(300, ordering: .relaxed)
        write(files, from: 0, count: 1500, block: 128)
        #expect(files.close())
        #expect(try frames(dir + "/both-001.wav") == Array(0..<300))
        #expect(try frames(dir + "/both-002.wav") == Array(300..<1300))
        #expect(try frames(dir + "/both-003.wav") == Array(1300..<1500))
    }

    @Test("--reconnect's numbering starts at the piece it is given")
    func firstPiece() throws {
        var spec = numberedSpec("again.wav")
        spec.firstPiece = 4
        let files = try RecordingFiles(spec: spec)
        write(files, from: 0, count: 10, block: 10)
        #expect(files.close())
        #expect(files.paths == [dir + "/again-004.wav"])
    }
}
