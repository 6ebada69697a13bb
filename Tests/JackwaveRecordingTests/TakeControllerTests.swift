import Foundation
import JackwaveDSP
@testable import JackwaveRecording
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// The take logic offline: blocks of a known level handed over as the writer would, the
/// takes read back from their files.
@Suite("TakeController")
struct TakeControllerTests {
    let dir = NSTemporaryDirectory() + "jackwave-takes-\(UUID().uuidString)"

    init() throws { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }

    /// Feeds blocks of `period` frames, loud (0.5) where `loud` says, quiet (0.001)
    /// elsewhere, each sample its own frame index / 1e6 above the level so that frames can
    /// be told apart; returns the takes.
    func run(_ loud: [Bool], period: Int = 64, preRoll: Int, stopAfter: Int64) throws -> [TakeSummary] {
        let path = dir + "/t.wav"
        let spec = RecordingSpec(path: path, format: try #require(SoundFormat.named("wav")), depth: .float, channels: 1,
                                 inputRate: 48000, fileRate: 48000, dither: false, splitFrames: nil,
                                 naming: FileNaming(base: path, armed: true, cut: false))
        let ledger = TakeLedger(maximumTakes: nil)
        let pipeline = try RecordingPipeline.opened(spec, observer: LedgerFeed(ledger))
        let blocks = SPSCRing<BlockRecord>(minimumCapacity: loud.count + 1, width: 1)
        let takes = TakeController(settings: TakeSettings(start: .level(0.25), stopLevel: 0.125, preRollFrames: preRoll,
                                                          stopAfterFrames: stopAfter, maximumTakes: nil),
                                   pipeline: pipeline, blocks: blocks, ledger: ledger, timelineBase: 0, onTrigger: nil)
        var samples: [Float] = []
        for (b, isLoud) in loud.enumerated() {
            let start = b * period
            let level: Float = isLoud ? 0.5 : 0.001
            samples += (0..<period).map { level + Float(start + $0) / 1e6 }
            _ = blocks.write(UnsafeBufferPointer(start: [BlockRecord(startFrame: Int64(start), frameCount: Int32(period),
                                                                     peak: level, rolling: false)], count: 1))
        }
        // Handed over in pieces that cut across blocks, as the ring's regions do.
        var at = 0
        while at < samples.count {
            let n = min(50, samples.count - at)
            #expect(samples.withUnsafeBufferPointer { takes.push($0.baseAddress! + at, count: n) })
            at += n
        }
        #expect(takes.finish())
        if ledger.openTake != nil {
            pipeline.files.endTake()
            ledger.ended(at: nil)
        }
        return ledger.takes.list
    }

    /// Hands each finalized file to the ledger, as the run's observer does.
    final class LedgerFeed: RecordingFilesObserver, @unchecked Sendable {
        let ledger: TakeLedger
        init(_ ledger: TakeLedger) { self.ledger = ledger }
        func fileStarted(_ file: RecordedFile) {}
        func fileClosed(_ file: RecordedFile) { ledger.add(file) }
    }

    @Test("a loud block starting right where a take would end continues it")
    func blockAtTheEndContinues() throws {
        // Loud, 2 quiet blocks (= --stop-after), loud again: one take.
        let takes = try run([false, true, false, false, true, false, false, false, false], preRoll: 0, stopAfter: 128)
        #expect(takes.count == 1)
        #expect(takes.first?.firstFrame == 64 && takes.first?.frames == 64 * 6)
    }

    @Test("the pre-roll is the frames just before the triggering block, and never those of the previous take")
    func preRollStopsAtThePreviousTake() throws {
        let takes = try run([false, false, false, true, false, false, true, false], preRoll: 200, stopAfter: 10)
        #expect(takes.count == 2)
        #expect(takes.element(at: 0).map { $0.firstFrame == 3 * 64 - 192 && $0.frames == 192 + 64 + 10 } == true)
        // Take 1 ended at frame 266: take 2's pre-roll starts there, 118 frames before its block.
        #expect(takes.element(at: 1).map { $0.firstFrame == 266 && $0.frames == 118 + 64 + 10 } == true)
        let second = try SoundFile(readingFrom: try #require(takes.element(at: 1)?.files.first, "\(takes)"))
        var first: Float = 0
        _ = second.read(into: &first, count: 1)
        let quiet: Float = 0.001, frame: Float = 266
        #expect(first == quiet + frame / 1e6)
    }
}
