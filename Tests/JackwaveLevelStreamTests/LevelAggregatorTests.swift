import JackwaveLevelStream
import Testing

/// Feeds `(startFrame, frameCount, peaks)` blocks and returns every row, `finish` included.
private func rows(interval: Int?, channels: Int = 1, _ blocks: [(Int64, Int, [Float])],
                  finish: Bool = true) -> [LevelRow] {
    var aggregator = LevelAggregator(channels: channels, intervalFrames: interval)
    var out: [LevelRow] = []
    for (start, count, peaks) in blocks {
        aggregator.add(startFrame: start, frameCount: count, peaks: peaks, into: &out)
    }
    if finish { aggregator.finish(into: &out) }
    return out
}

@Suite("LevelAggregator")
struct LevelAggregatorTests {
    @Test("Without an interval every block becomes one row at its first frame")
    func perBlockRows() {
        let out = rows(interval: nil, channels: 2, [(0, 256, [0.5, 0.25]), (256, 256, [0.1, 0.9])])
        #expect(out == [LevelRow(frame: 0, peaks: [0.5, 0.25]), LevelRow(frame: 256, peaks: [0.1, 0.9])])
    }

    @Test("An interval's row holds the per-channel maximum of the block peaks in it")
    func intervalMaximum() {
        let out = rows(interval: 512, channels: 2,
                       [(0, 256, [0.5, 0.1]), (256, 256, [0.2, 0.7]), (512, 256, [0.3, 0.3]), (768, 256, [0.4, 0.2])])
        #expect(out == [LevelRow(frame: 0, peaks: [0.5, 0.7]), LevelRow(frame: 512, peaks: [0.4, 0.3])])
    }

    @Test("Rows start at multiples of the interval and a straddling block counts in both intervals")
    func frameAlignment() {
        // Interval 480 (10 ms at 48 kHz), blocks of 256: block 256..<512 straddles 480.
        let out = rows(interval: 480, [(0, 256, [0.1]), (256, 256, [0.8]), (512, 256, [0.2]), (768, 256, [0.3])])
        #expect(out.map(\.frame) == [0, 480, 960])
        #expect(out.map(\.peaks) == [[0.8], [0.8], [0.3]])
    }

    @Test("An interval is emitted only once the stream has reached its end")
    func emittedWhenComplete() {
        let open = rows(interval: 1000, [(0, 256, [0.5]), (256, 256, [0.5])], finish: false)
        #expect(open.isEmpty)
        let done = rows(interval: 512, [(0, 256, [0.5]), (256, 256, [0.6])], finish: false)
        #expect(done == [LevelRow(frame: 0, peaks: [0.6])])
    }

    @Test("finish emits the last, partial interval")
    func partialLastInterval() {
        let out = rows(interval: 1000, [(0, 600, [0.25]), (600, 600, [0.5]), (1200, 100, [0.75])])
        #expect(out == [LevelRow(frame: 0, peaks: [0.5]), LevelRow(frame: 1000, peaks: [0.75])])
    }

    @Test("Intervals that no block touched produce no row")
    func gapsInventNoRows() {
        // Blocks for frames 1000..<2000 were lost.
        let out = rows(interval: 500, [(0, 500, [0.1]), (500, 500, [0.2]), (2000, 500, [0.3])])
        #expect(out.map(\.frame) == [0, 500, 2000])
    }

    @Test("A block longer than the interval fills every interval it covers")
    func blockLongerThanInterval() {
        let out = rows(interval: 100, [(0, 256, [0.5])])
        #expect(out == [LevelRow(frame: 0, peaks: [0.5]), LevelRow(frame: 100, peaks: [0.5]),
                        LevelRow(frame: 200, peaks: [0.5])])
    }

    @Test("Interval frames are milliseconds times the rate, rounded to whole frames, at least one")
    func intervalFrames() {
        #expect(LevelAggregator.intervalFrames(milliseconds: 10, sampleRate: 48000) == 480)
        #expect(LevelAggregator.intervalFrames(milliseconds: 10, sampleRate: 44100) == 441)
        #expect(LevelAggregator.intervalFrames(milliseconds: 0.01, sampleRate: 44100) == 1)   // 0.441 frames
        #expect(LevelAggregator.intervalFrames(milliseconds: 1.5, sampleRate: 44100) == 66)   // 66.15 frames
    }
}
