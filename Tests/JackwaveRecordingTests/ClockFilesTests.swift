import Foundation
@testable import JackwaveRecording
import JackwaveSoundFiles
import JackwaveTestSupport
import Synchronization
import Testing

/// Files on the wall clock (`--split-every`), without a server: `RecordingFiles` cutting a
/// connection's frames at the boundaries its `WallClockCuts` gives, naming each piece after
/// its time, stepping with the clock, doubling the edges with `--overlap`, and cutting a
/// take, frame for frame. At 100 frames a second, so that two hours are 720 000 frames.
@Suite("Files on the wall clock")
struct ClockFilesTests {
    let dir: String = {
        let path = NSTemporaryDirectory() + "jackwave-clockfiles-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()
    static let rate = 100
    /// 2025-03-14 13:59:58 UTC.
    static let beforeTwo = 1_741_960_798

    /// Europe/Berlin's 2025 changes (as `ClockTests`, checked there against tzdata).
    static let fallBack = 1_761_440_400
    static let springForward = 1_743_296_400
    static let berlin = TransitionTableRules([
        .init(since: 1_729_990_800, offset: 3600, abbreviation: "CET"),
        .init(since: springForward, offset: 7200, abbreviation: "CEST"),
        .init(since: fallBack, offset: 3600, abbreviation: "CET"),
    ])

    func spec(_ name: String, period: String = "1h", pattern: String? = nil, zone: (any TimeZoneRules)? = nil,
              overlap: Int64 = 0, armed: Bool = false) throws -> RecordingSpec {
        let path = dir + "/" + name
        var spec = RecordingSpec(path: path, format: try #require(SoundFormat.named("wav")), depth: .float, channels: 1,
                                 inputRate: Self.rate, fileRate: Self.rate, dither: false, splitFrames: nil,
                                 naming: FileNaming(base: path, armed: armed, cut: true))
        let naming = ClockNaming(record: path, pattern: try pattern.map { try NamePattern.parse($0) },
                                 zone: zone ?? UTCRules(), zoneName: zone == nil ? "UTC" : "test")
        spec.clock = ClockPlan(period: try #require(ClockPeriod.parse(period), "\(period) did not parse"), naming: naming, overlapFrames: overlap)
        return spec
    }

    /// Counts frames 0, 1, 2, … (one channel) into `files`, `block` frames a write.
    func write(_ files: RecordingFiles, from start: Int, count: Int, block: Int = 25_000) {
        var frame = start
        var samples = [Float](repeating: 0, count: block)
        while frame < start + count {
            let n = min(block, start + count - frame)
            for i in 0..<n { samples[i] = Float(frame + i) / 1_000_000 }
            #expect(samples.withUnsafeBufferPointer { files.write($0.baseAddress!, count: n) })
            frame += n
        }
    }

    /// The names in `dir` (and its folders), sorted, without `dir`.
    func names() -> [String] {
        let all = FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []
        return all.filter { $0.hasSuffix(".wav") }.sorted()
    }

    @Test("across two hour boundaries: three pieces named by the clock, cut at the boundaries' frames, joining sample-exact")
    func twoHourBoundaries() throws {
        let files = RecordingFiles(spec: try spec("air.wav"), observer: nil, keeper: nil, messages: nil)
        files.setStart(WallClockTime(seconds: Self.beforeTwo, nanoseconds: 0))
        files.beginSegment(atStreamFrame: 0)
        let total = (2 + 3600 + 3) * Self.rate
        write(files, from: 0, count: total)
        #expect(files.close())
        #expect(names() == ["air-20250314-135958.wav", "air-20250314-140000.wav", "air-20250314-150000.wav"])
        #expect(try frameNumbers(dir + "/air-20250314-135958.wav") == Array(0..<200))
        #expect(try frameNumbers(dir + "/air-20250314-140000.wav") == Array(200..<(200 + 360_000)))
        #expect(try frameNumbers(dir + "/air-20250314-150000.wav") == Array((200 + 360_000)..<total))
        #expect(files.framesWritten == Int64(total))
    }

    @Test("a frame 0 between two frames: the cut is the first frame at or after the boundary")
    func boundaryBetweenFrames() throws {
        let files = RecordingFiles(spec: try spec("odd.wav", period: "10s"), observer: nil, keeper: nil, messages: nil)
        // 2.3456 s before a ten-second boundary: the boundary falls 234.56 frames in.
        files.setStart(WallClockTime(seconds: Self.beforeTwo - 1, nanoseconds: 654_400_000))
        files.beginSegment(atStreamFrame: 0)
        write(files, from: 0, count: 1200, block: 64)
        #expect(files.close())
        let list = names()
        #expect(list.count == 2, "\(list)")
        let first = try #require(list.element(at: 0), "\(list)"), second = try #require(list.element(at: 1), "\(list)")
        #expect(try frameNumbers(dir + "/" + first) == Array(0..<235))
        #expect(try frameNumbers(dir + "/" + second) == Array(235..<1200))
        #expect(second == "odd-20250314-140000.wav")
    }

    @Test("a pattern makes its folders, and a name that exists gets a suffix; the file that was there is kept")
    func patternFoldersAndSuffix() throws {
        try FileManager.default.createDirectory(atPath: dir + "/2025-03-14", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir + "/2025-03-14/1400.wav", contents: Data("someone else's".utf8))
        let files = RecordingFiles(spec: try spec("air.wav", pattern: "%Y-%m-%d/%H%M.wav"), observer: nil, keeper: nil, messages: nil)
        files.setStart(WallClockTime(seconds: Self.beforeTwo, nanoseconds: 0))
        files.beginSegment(atStreamFrame: 0)
        write(files, from: 0, count: 300)
        #expect(files.close())
        #expect(names() == ["2025-03-14/1359.wav", "2025-03-14/1400.wav", "2025-03-14/1400_2.wav"])
        #expect(try String(contentsOfFile: dir + "/2025-03-14/1400.wav", encoding: .utf8) == "someone else's")
        #expect(try frameNumbers(dir + "/2025-03-14/1400_2.wav") == Array(200..<300))
    }

    @Test("DST ending: the clock shows 02:00 twice, and each is a boundary (the second 02:00 gets a suffix without %z)")
    func fallBack() throws {
        let files = RecordingFiles(spec: try spec("dst.wav", pattern: "%H%M.wav", zone: Self.berlin), observer: nil, keeper: nil, messages: nil)
        // 01:59:59 CEST, an hour and a second before the change.
        files.setStart(WallClockTime(seconds: Self.fallBack - 3601, nanoseconds: 0))
        files.beginSegment(atStreamFrame: 0)
        let total = (1 + 3600 + 3600 + 1) * Self.rate
        write(files, from: 0, count: total)
        #expect(files.close())
        #expect(names() == ["0159.wav", "0200.wav", "0200_2.wav", "0300.wav"])
        #expect(try frameNumbers(dir + "/0200.wav") == Array(100..<(100 + 360_000)))
        #expect(try frameNumbers(dir + "/0200_2.wav") == Array((100 + 360_000)..<(100 + 720_000)))
    }

    @Test("DST starting: the clock jumps from 02:00 to 03:00; the piece after 01:00 is cut at the jump, named 03:00, and holds an hour")
    func springForward() throws {
        let files = RecordingFiles(spec: try spec("dst.wav", pattern: "%H%M%Z.wav", zone: Self.berlin), observer: nil, keeper: nil, messages: nil)
        // 00:59:59 CET.
        files.setStart(WallClockTime(seconds: Self.springForward - 3601, nanoseconds: 0))
        files.beginSegment(atStreamFrame: 0)
        write(files, from: 0, count: (1 + 3600 + 2) * Self.rate)
        #expect(files.close())
        #expect(names() == ["0059CET.wav", "0100CET.wav", "0300CEST.wav"])
        #expect(try frameNumbers(dir + "/0100CET.wav").count == 360_000)
    }

    @Test("a step of the wall clock cuts where it was seen, names the next piece after the new time, and loses or repeats no frame")
    func stepAhead() throws {
        let files = RecordingFiles(spec: try spec("step.wav"), observer: nil, keeper: nil, messages: nil)
        // 10:15:00 UTC; at 2 s the clock reads an hour and a half later.
        let start = Self.beforeTwo - 13_498
        files.setStart(WallClockTime(seconds: start, nanoseconds: 0))
        files.beginSegment(atStreamFrame: 0)
        write(files, from: 0, count: 250)
        let step = files.observeClock(frame: 200, reading: WallClockTime(seconds: start + 2 + 5400, nanoseconds: 0))
        #expect(step?.seconds == 5400)
        write(files, from: 250, count: 250)
        #expect(files.close())
        #expect(names() == ["step-20250314-101500.wav", "step-20250314-114502.wav"])
        // Cut at the first frame not yet written when the step was seen (250), named after the
        // new clock's time of it (11:45:02.5).
        #expect(try frameNumbers(dir + "/step-20250314-101500.wav") == Array(0..<250))
        #expect(try frameNumbers(dir + "/step-20250314-114502.wav") == Array(250..<500))
    }

    @Test("drift under a second moves the next cut to the wall clock's boundary; the pieces still join")
    func drift() throws {
        let files = RecordingFiles(spec: try spec("drift.wav", period: "10s"), observer: nil, keeper: nil, messages: nil)
        files.setStart(WallClockTime(seconds: Self.beforeTwo, nanoseconds: 0))
        files.beginSegment(atStreamFrame: 0)
        write(files, from: 0, count: 100)
        // The wall clock runs 0.3 s ahead of the audio's: 14:00:00 comes at frame 170, not 200.
        #expect(files.observeClock(frame: 100, reading: WallClockTime(seconds: Self.beforeTwo + 1, nanoseconds: 300_000_000)) == nil)
        write(files, from: 100, count: 200)
        #expect(files.close())
        #expect(try frameNumbers(dir + "/drift-20250314-135958.wav") == Array(0..<170))
        #expect(try frameNumbers(dir + "/drift-20250314-140000.wav") == Array(170..<300))
    }

    @Test("--overlap: each file holds O frames of each neighbour, never past its far cut, and the own pieces join")
    func overlap() throws {
        let log = RecordingCutTests.Log()
        let files = RecordingFiles(spec: try spec("ov.wav", period: "10s", overlap: 300), observer: log, keeper: nil, messages: nil)
        files.setStart(WallClockTime(seconds: Self.beforeTwo, nanoseconds: 0))
        files.beginSegment(atStreamFrame: 0)
        // Cuts at 200 (14:00:00), 1200, 2200; the recording ends at 2500.
        write(files, from: 0, count: 2500, block: 77)
        #expect(files.close())
        let cuts: [Int64] = [0, 200, 1200, 2200]
        let list = names()
        #expect(list.count == 4, "\(list)")
        for (k, name) in list.enumerated() {
            let span = OverlapSpans.file(piece: k, cuts: cuts, overlap: 300, end: 2500)
            #expect(try frameNumbers(dir + "/" + name) == Array(Int(span.lowerBound)..<Int(span.upperBound)), "\(name)")
        }
        // The first file: its own 200 frames and 300 after; the second: 200 before (all the
        // first piece has), its 1000, 300 after; the last: 300 before and its own 300.
        let first = try #require(list.element(at: 0), "\(list)"), second = try #require(list.element(at: 1), "\(list)")
        let last = try #require(list.element(at: 3), "\(list)")
        #expect(try frameNumbers(dir + "/" + first).count == 500)
        #expect(try frameNumbers(dir + "/" + second) == Array(0..<1500))
        #expect(try frameNumbers(dir + "/" + last) == Array(1900..<2500))
        // Frames counted once; each file told with its first frame and end on the timeline.
        #expect(files.framesWritten == 2500)
        #expect(log.lines.withLock { $0 } == [
            "open ov-20250314-135958.wav 0", "open ov-20250314-140000.wav 0", "close ov-20250314-135958.wav 500 500 true",
            "open ov-20250314-140010.wav 900", "close ov-20250314-140000.wav 1500 1500 true",
            "open ov-20250314-140020.wav 1900", "close ov-20250314-140010.wav 1600 2500 true",
            "close ov-20250314-140020.wav 600 2500 true",
        ])
    }

    @Test("a take cut by the clock goes on in its next piece, same take; a take's first piece is named after its first frame")
    func takeAcrossBoundary() throws {
        let log = RecordingCutTests.Log()
        let files = RecordingFiles(spec: try spec("take.wav", period: "10s", armed: true), observer: log, keeper: nil, messages: nil)
        files.setStart(WallClockTime(seconds: Self.beforeTwo, nanoseconds: 0))
        // Armed until frame 150 (13:59:59.5), when a take starts; the boundary falls at 200.
        files.beginSegment(atStreamFrame: 150)
        #expect(files.startTake() == 1)
        write(files, from: 150, count: 100)
        #expect(files.endTake())
        // Take 2, after two more boundaries (14:00:10, 14:00:20) passed while armed.
        files.beginSegment(atStreamFrame: 2250)
        #expect(files.startTake() == 2)
        write(files, from: 2250, count: 100)
        #expect(files.endTake())
        #expect(names() == ["take-20250314-135959.wav", "take-20250314-140000.wav", "take-20250314-140020.wav"])
        #expect(try frameNumbers(dir + "/take-20250314-135959.wav") == Array(150..<200))
        #expect(try frameNumbers(dir + "/take-20250314-140000.wav") == Array(200..<250))
        #expect(try frameNumbers(dir + "/take-20250314-140020.wav") == Array(2250..<2350))
        #expect(files.files.count == 3)
    }
}
