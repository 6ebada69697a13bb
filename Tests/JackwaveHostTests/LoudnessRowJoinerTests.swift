@testable import JackwaveAnalysis
import JackwaveDSP
@testable import JackwaveHost
import JackwaveLevelStream
import Testing

/// A reading at `frame` whose integrated loudness is `frame` / 1000 (so a test can tell
/// which reading a row got).
private func reading(_ frame: Int64) -> LoudnessReading {
    LoudnessReading(frame: frame,
                    columns: LoudnessColumns(momentary: -20, shortTerm: -21, integrated: Float(frame) / 1000, range: 1,
                                             truePeaks: [-3]),
                    recentTruePeaks: [-4])
}

private func row(_ frame: Int64) -> LevelRow { LevelRow(frame: frame, peaks: [0.5]) }

/// Rows wait for the reading at their end: 4800-frame readings (100 ms at 48 kHz).
@Suite("LoudnessRowJoiner")
struct LoudnessRowJoinerTests {
    @Test("a row waits until the analysis has reported up to its end, then gets the reading at or before its end")
    func rowWaitsForItsReading() {
        var j = LoudnessRowJoiner(readingFrames: 4800, holdLimitFrames: 480_000)
        var out: [LevelRow] = []
        j.hold([row(4800)], ends: [7200])
        j.take([reading(4800)])
        j.release(into: &out)
        #expect(out.isEmpty)          // 4800 < 7200: a final reading may still fall at 7200
        j.take([reading(9600)])
        j.release(into: &out)
        #expect(out.map(\.loudness?.integrated) == [4.8])
        #expect(j.heldCount == 0)
    }

    @Test("rows before the first 100 ms leave at once without loudness")
    func earlyRowsHaveNone() {
        var j = LoudnessRowJoiner(readingFrames: 4800, holdLimitFrames: 480_000)
        var out: [LevelRow] = []
        j.hold([row(0)], ends: [0])
        j.release(into: &out)
        #expect(out.count == 1 && out[0].loudness == nil)
    }

    @Test("the final reading off the 100-ms grid reaches the last row ending exactly there")
    func finalReadingReachesLastRow() {
        var j = LoudnessRowJoiner(readingFrames: 4800, holdLimitFrames: 480_000)
        var out: [LevelRow] = []
        j.hold([row(4800), row(9600)], ends: [9600, 12000])
        j.take([reading(4800), reading(9600), reading(12000)])
        j.close()
        j.release(into: &out)
        #expect(out.map(\.loudness?.integrated) == [9.6, 12.0])
    }

    @Test("once the analysis has stopped, rows ending past its last reading get no loudness")
    func staleReadingIsNotUsed() {
        var j = LoudnessRowJoiner(readingFrames: 4800, holdLimitFrames: 480_000)
        var out: [LevelRow] = []
        j.hold([row(4800), row(9600), row(14400)], ends: [9600, 14400, 19200])
        j.take([reading(4800), reading(9600)])
        j.close()
        j.release(into: &out)
        #expect(out.map(\.loudness?.integrated) == [9.6, nil, nil])
    }

    @Test("a row is not held more than the limit behind the newest row")
    func holdLimit() {
        var j = LoudnessRowJoiner(readingFrames: 4800, holdLimitFrames: 48000)
        var out: [LevelRow] = []
        j.hold([row(0), row(24000), row(52800)], ends: [24000, 48000, 76800])
        j.take([reading(4800)])
        j.release(into: &out)
        // 76800 − 24000 > 48000: the first leaves (its reading is stale: none); the others wait.
        #expect(out.count == 1 && out[0].loudness == nil)
        #expect(j.heldCount == 2)
    }
}
