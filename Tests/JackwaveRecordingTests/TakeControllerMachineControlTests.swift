import Foundation
import JackwaveDSP
@testable import JackwaveRecording
import JackwaveSoundFiles
import JackwaveTestSupport
import Synchronization
import Testing

/// Takes that follow MIDI Machine Control (`--mmc`): blocks whose records carry a command at
/// an offset, handed over as the writer would; each take read back from its file, whose
/// every sample is its frame's number.
@Suite("TakeControllerMachineControl")
struct TakeControllerMachineControlTests {
    let dir = temporaryDirectory()

    /// What a run made: its takes, each with the frames its file holds, and the triggers told.
    struct Outcome {
        var takes: [TakeSummary]
        var frames: [[Int]]
        var triggers: [Trigger]
    }

    struct Trigger: Equatable {
        var number: Int
        var frame: Int64
        var preRoll: Int
    }

    /// Feeds `count` blocks of `period` frames, block `b` carrying `commands[b]` (a command
    /// and its offset) if any, in pieces of `chunk` frames that cut across blocks and commands.
    func run(blocks count: Int = 8, period: Int = 256, commands: [Int: (MachineControl, Int32)], preRoll: Int = 0,
             chunk: Int = 50) throws -> Outcome {
        let path = dir + "/t.wav"
        let spec = RecordingSpec(path: path, format: try #require(SoundFormat.named("wav")), depth: .float, channels: 1,
                                 inputRate: 48000, fileRate: 48000, dither: false, splitFrames: nil,
                                 naming: FileNaming(base: path, armed: true, cut: false))
        let ledger = TakeLedger(maximumTakes: nil)
        let pipeline = try RecordingPipeline.opened(spec, observer: TakeControllerTests.LedgerFeed(ledger))
        let blocks = SPSCRing<BlockRecord>(minimumCapacity: count + 1, width: 1)
        let triggers = Mutex<[Trigger]>([])
        let takes = TakeController(settings: TakeSettings(start: .machineControl, stopLevel: 0.125, preRollFrames: preRoll,
                                                          stopAfterFrames: 0, maximumTakes: nil),
                                   pipeline: pipeline, blocks: blocks, ledger: ledger, timelineBase: 0,
                                   onTrigger: { n, frame, pre in triggers.withLock { $0.append(Trigger(number: n, frame: frame, preRoll: pre)) } })
        for b in 0..<count {
            let command = commands[b]
            // Loud throughout: MMC takes ignore the level.
            let record = BlockRecord(startFrame: Int64(b * period), frameCount: Int32(period), peak: 0.9, rolling: true,
                                     command: command?.0, commandOffset: command?.1 ?? 0)
            #expect([record].withUnsafeBufferPointer { blocks.write($0) })
        }
        let samples = (0..<count * period).map { Float($0) / 1e6 }
        var at = 0
        while at < samples.count {
            let n = min(chunk, samples.count - at)
            let pushed = samples.withUnsafeBufferPointer { b in b.baseAddress.map { takes.push($0 + at, count: n) } ?? false }
            try #require(pushed)
            at += n
        }
        #expect(takes.finish())
        if ledger.openTake != nil {
            pipeline.files.endTake()
            ledger.ended(at: nil)
        }
        let list = ledger.takes.list
        let frames = try list.map { try frameNumbers(try #require($0.files.first, "\(list)")) }
        return Outcome(takes: list, frames: frames, triggers: triggers.withLock { $0 })
    }

    @Test("RECORD STROBE at offset 100 starts the take at that very frame, RECORD EXIT ends it at its own",
          arguments: [50, 70, 89, 2048])
    func strobeAndExitAreFrameExact(chunk: Int) throws {
        // 356 = 4 × 89 and 1330 = 19 × 70: some hand-overs end right at a command.
        let out = try run(commands: [1: (.recordStrobe, 100), 5: (.recordExit, 50)], chunk: chunk)
        try #require(out.takes.count == 1, "\(out.takes)")
        #expect(out.takes.first?.firstFrame == 356)
        #expect(out.takes.first?.frames == 974) // 1330 − 356
        #expect(out.frames.first == Array(356..<1330))
        #expect(out.triggers == [Trigger(number: 1, frame: 356, preRoll: 0)])
    }

    @Test("a second RECORD STROBE inside a take changes nothing")
    func strobeInsideATakeChangesNothing() throws {
        let out = try run(commands: [1: (.recordStrobe, 100), 3: (.recordStrobe, 10), 5: (.recordExit, 50)])
        try #require(out.takes.count == 1, "\(out.takes)")
        #expect(out.frames.first == Array(356..<1330))
        #expect(out.triggers.count == 1)
    }

    @Test("RECORD EXIT outside a take changes nothing, before or after it")
    func exitOutsideATakeChangesNothing() throws {
        let out = try run(commands: [1: (.recordExit, 20), 2: (.recordStrobe, 30), 6: (.recordExit, 0), 7: (.recordExit, 5)])
        try #require(out.takes.count == 1, "\(out.takes)")
        #expect(out.takes.first?.firstFrame == 542)
        #expect(out.frames.first == Array(542..<1536))
    }

    @Test("STOP ends a take at its frame, as RECORD EXIT does")
    func stopEndsATake() throws {
        let out = try run(commands: [1: (.recordStrobe, 0), 3: (.stop, 255)])
        try #require(out.takes.count == 1, "\(out.takes)")
        #expect(out.frames.first == Array(256..<1023))
    }

    @Test("the pre-roll's frames, just before the strobe, are written first")
    func preRollIsWrittenFirst() throws {
        let out = try run(commands: [2: (.recordStrobe, 30), 4: (.recordExit, 70)], preRoll: 200)
        try #require(out.takes.count == 1, "\(out.takes)")
        #expect(out.takes.first?.firstFrame == 342)
        #expect(out.frames.first == Array(342..<1094))
        #expect(out.triggers == [Trigger(number: 1, frame: 542, preRoll: 200)])
    }

    @Test("two strobe-exit pairs make two takes, the second's pre-roll reaching back only to the first's end")
    func twoTakes() throws {
        let out = try run(commands: [1: (.recordStrobe, 10), 2: (.recordExit, 0), 3: (.recordStrobe, 10), 5: (.recordExit, 0)],
                          preRoll: 300)
        try #require(out.takes.count == 2, "\(out.takes)")
        #expect(out.frames.element(at: 0) == Array(0..<512))
        #expect(out.frames.element(at: 1) == Array(512..<1280))
        #expect(out.triggers == [Trigger(number: 1, frame: 266, preRoll: 266), Trigger(number: 2, frame: 778, preRoll: 266)])
    }

    @Test("a take still open at the end keeps every frame from its strobe")
    func openTakeKeepsItsFrames() throws {
        let out = try run(commands: [6: (.recordStrobe, 200)])
        try #require(out.takes.count == 1, "\(out.takes)")
        #expect(out.frames.first == Array(1736..<2048))
    }
}
