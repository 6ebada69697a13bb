/// Notices blocks missing from the level stream, so that a loss is always reported and
/// never silently bridged (the stream itself just skips those frames: no invented rows).
///
/// Blocks are lost when the level ring is full (the callback counts them in
/// `droppedLevelBlocks`); they show up here as frames missing between one block's end and
/// the next block's start. The count of a gap is its length in blocks of the size seen
/// just before it (exact while the period stays the same). Blocks lost at the very end
/// show no gap; `close` reports them from the callback's counter.
struct LevelGapTracker {
    let sampleRate: Int
    /// The frame the next block should start at.
    private(set) var expectedFrame: Int64 = 0
    private var lastBlockFrames = 0
    /// Blocks reported lost so far.
    private(set) var reportedBlocks = 0

    /// A tracker whose first block should start at `from` (a connection's first frame on the
    /// run's timeline).
    init(sampleRate: Int, from: Int64 = 0) {
        self.sampleRate = sampleRate
        expectedFrame = from
    }

    /// Checks one block; returns the line to show if blocks are missing before it.
    mutating func check(startFrame: Int64, frameCount: Int) -> String? {
        defer {
            expectedFrame = startFrame + Int64(frameCount)
            lastBlockFrames = frameCount
        }
        let missing = startFrame - expectedFrame
        guard missing > 0 else { return nil }
        let blockFrames = Int64(max(1, lastBlockFrames > 0 ? lastBlockFrames : frameCount))
        let blocks = Int((missing + blockFrames - 1) / blockFrames)
        reportedBlocks += blocks
        return Self.message(blocks: blocks, atFrame: expectedFrame, sampleRate: sampleRate)
    }

    /// At the end: the callback's count of lost blocks beyond those already reported.
    mutating func close(droppedBlocks: Int) -> String? {
        let unreported = droppedBlocks - reportedBlocks
        guard unreported > 0 else { return nil }
        reportedBlocks = droppedBlocks
        return Self.message(blocks: unreported, atFrame: expectedFrame, sampleRate: sampleRate)
    }

    /// `levels: N blocks lost at T s`, T with millisecond precision.
    static func message(blocks: Int, atFrame frame: Int64, sampleRate: Int) -> String {
        let millis = (frame * 1000 + Int64(sampleRate) / 2) / Int64(sampleRate)
        let fraction = String(millis % 1000)
        let seconds = "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
        return "levels: \(blocks) block\(blocks == 1 ? "" : "s") lost at \(seconds) s"
    }
}
