@testable import JackwaveHost
import Testing

@Suite("LevelGapTracker")
struct LevelGapTrackerTests {
    @Test("Contiguous blocks report nothing")
    func noGap() {
        var t = LevelGapTracker(sampleRate: 48000)
        #expect(t.check(startFrame: 0, frameCount: 256) == nil)
        #expect(t.check(startFrame: 256, frameCount: 256) == nil)
        #expect(t.close(droppedBlocks: 0) == nil)
    }

    @Test("Missing frames between blocks are reported as lost blocks at the gap's time")
    func gapReported() {
        var t = LevelGapTracker(sampleRate: 48000)
        _ = t.check(startFrame: 0, frameCount: 256)
        #expect(t.check(startFrame: 256 + 3 * 256, frameCount: 256) == "levels: 3 blocks lost at 0.005 s")
        #expect(t.reportedBlocks == 3)
    }

    @Test("Blocks lost at the very end are reported at close from the callback's count")
    func lostAtEnd() {
        var t = LevelGapTracker(sampleRate: 48000)
        _ = t.check(startFrame: 0, frameCount: 48000)
        _ = t.check(startFrame: 48000 + 512, frameCount: 512)   // 1 block lost (of 48000 frames)
        #expect(t.close(droppedBlocks: 3) == "levels: 2 blocks lost at 1.021 s")
        #expect(t.close(droppedBlocks: 3) == nil)
    }

    @Test("Blocks lost before the first one are reported at 0 s")
    func lostAtStart() {
        var t = LevelGapTracker(sampleRate: 48000)
        #expect(t.check(startFrame: 256, frameCount: 256) == "levels: 1 block lost at 0.000 s")
    }
}
