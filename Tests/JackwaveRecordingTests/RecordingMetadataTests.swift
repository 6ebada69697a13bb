import Foundation
@testable import JackwaveRecording
import JackwaveSoundFiles
import JackwaveTestSupport
import Synchronization
import Testing

/// What the files say of themselves without a server: the time each piece is stamped with
/// from a timecode, and the take each is named and numbered after.
@Suite("Recording metadata")
struct RecordingMetadataTests {
    let dir = temporaryDirectory()

    /// A timecode that says stream frame f is `origin + f` samples since midnight, in stretch
    /// 1 before `jumpAt` and `jumpTo + (f - jumpAt)` in stretch 2 from it.
    final class FakeTimecode: StreamTimecode, @unchecked Sendable {
        let origin: Double, jumpAt: Int64, jumpTo: Double
        init(origin: Double, jumpAt: Int64 = .max, jumpTo: Double = 0) {
            (self.origin, self.jumpAt, self.jumpTo) = (origin, jumpAt, jumpTo)
        }
        func reading(atStreamFrame frame: Int64, waitingAtMost seconds: Double) -> TimecodeAnswer {
            let after = frame >= jumpAt
            return .reading(TimecodeReading(samples: after ? jumpTo + Double(frame - jumpAt) : origin + Double(frame),
                                   label: TimecodeLabel(rate: "25/1", dropFrame: false, text: after ? "10:00:00:00" : "01:00:00:00"),
                                   stretch: after ? 2 : 1))
        }
    }

    func spec(_ name: String, fileRate: Int = 48000, split: Int64? = nil, armed: Bool = false,
              takeNames: FileNaming.TakeNames? = nil) throws -> RecordingSpec {
        var spec = RecordingSpec(path: dir + "/" + name, format: try #require(SoundFormat.named("wav")), depth: .float, channels: 1,
                                 inputRate: 48000, fileRate: fileRate, dither: false, splitFrames: split,
                                 naming: FileNaming(base: dir + "/" + name, armed: armed, cut: split != nil, takeNames: takeNames))
        spec.production = takeNames?.production ?? ProductionInfo()
        return spec
    }

    func write(_ files: RecordingFiles, frames: Int) {
        let zeros = [Float](repeating: 0, count: frames)
        #expect(zeros.withUnsafeBufferPointer { files.write($0.baseAddress!, count: frames) })
    }

    static func timeReference(_ path: String) -> UInt64? { (try? SoundFile(readingFrom: path))?.broadcastInfo?.timeReference }

    @Test("converted to another rate, each piece still starts at the last one's time plus its frames")
    func piecesContinueAcrossARateChange() throws {
        let files = RecordingFiles(spec: try spec("rate.wav", fileRate: 44100, split: 4410), observer: nil)
        files.setOrigin(start: nil, timelineBase: 0, timecode: FakeTimecode(origin: 172_800_000.4))
        files.beginSegment(atStreamFrame: 0)
        write(files, frames: 4410 * 3)
        #expect(files.close())
        let stamps = (1...3).map { Self.timeReference(dir + String(format: "/rate-%03d.wav", $0)) }
        let first = try #require(stamps[0])
        #expect(first == UInt64((172_800_000.4 * 44100 / 48000).rounded()))
        #expect(stamps == [first, first + 4410, first + 8820], "\(stamps)")
    }

    @Test("a piece after a jump in the code takes the new code, not the count of the pieces before")
    func jumpRestartsTheCount() throws {
        let files = RecordingFiles(spec: try spec("jump.wav", split: 1000), observer: nil)
        files.setOrigin(start: nil, timelineBase: 0, timecode: FakeTimecode(origin: 1000, jumpAt: 1500, jumpTo: 5_000_000))
        files.beginSegment(atStreamFrame: 0)
        write(files, frames: 3000)
        #expect(files.close())
        let stamps = (1...3).map { Self.timeReference(dir + String(format: "/jump-%03d.wav", $0)) }
        #expect(stamps == [1000, 2000, 5_000_500], "\(stamps)")
        #expect(files.files.filesSpanningJumps == 1)
    }

    @Test("armed takes named by a pattern count up from the first take given, passing over a name that exists")
    func takeNamesCountUp() throws {
        let names = FileNaming.TakeNames(pattern: "%S_%T.wav", production: ProductionInfo(scene: "12A", firstTake: 3))
        try Data().write(to: URL(fileURLWithPath: dir + "/12A_T004.wav"))
        let files = RecordingFiles(spec: try spec("x.wav", armed: true, takeNames: names), observer: nil)
        for _ in 0..<2 {
            files.beginSegment(atStreamFrame: 0)
            _ = files.startTake()
            write(files, frames: 100)
            #expect(files.endTake())
        }
        #expect(FileManager.default.fileExists(atPath: dir + "/12A_T003.wav"))
        #expect(FileManager.default.fileExists(atPath: dir + "/12A_T005.wav"))
        #expect(try IXMLFields(dir + "/12A_T005.wav")["TAKE"] == "5")
        let families = try ["12A_T003.wav", "12A_T005.wav"].map { try IXMLFields(dir + "/" + $0)["FILE_SET/FAMILY_UID"] }
        #expect(Set(families).count == 2, "each take a family of its own: \(families)")
    }
}
