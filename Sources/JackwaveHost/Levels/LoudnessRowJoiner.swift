import JackwaveAnalysis
import JackwaveDSP
import JackwaveLevelStream

/// Puts the loudness on level-stream rows: each row waits until the analysis has reported
/// the reading that belongs to its end, and then leaves with it.
///
/// A row ending at frame E waits for a reading at or after E, then gets the latest reading at
/// or before E, if that one is less than one reading interval old (the reading at the last
/// 100-ms mark, or the final one when E is the end); otherwise — before the first 100 ms, or once the analysis has stopped — it
/// gets none. The analysis runs behind the level ring (it is fed by the writer's passes), so
/// rows are held for that long (a few tenths of a second) rather than given a stale value;
/// a row is never held longer than `holdLimitFrames` past the newest one.
struct LoudnessRowJoiner {
    /// Frames between readings.
    let readingFrames: Int64
    /// The longest a row waits, in frames of stream after it.
    let holdLimitFrames: Int64
    private var held: [(row: LevelRow, end: Int64)] = []
    /// Readings not yet passed by every held row, oldest first.
    private var readings: [LoudnessReading] = []
    /// No reading will come any more (the analysis finished or stopped).
    private var closed = false

    init(readingFrames: Int, holdLimitFrames: Int) {
        self.readingFrames = Int64(readingFrames)
        self.holdLimitFrames = Int64(holdLimitFrames)
    }

    /// Rows held, for tests and for a bound on memory.
    var heldCount: Int { held.count }

    /// Holds `rows`, the i-th ending at `ends[i]`, in stream order.
    mutating func hold(_ rows: [LevelRow], ends: [Int64]) {
        precondition(rows.count == ends.count)
        for (row, end) in zip(rows, ends) { held.append((row, end)) }
    }

    /// Takes new readings, oldest first.
    mutating func take(_ new: [LoudnessReading]) { readings += new }

    /// No more readings: every held row can leave.
    mutating func close() { closed = true }

    /// Appends the rows that can leave now, with their loudness.
    mutating func release(into out: inout [LevelRow]) {
        let newestEnd = held.last?.end ?? 0
        let reported = readings.last?.frame ?? 0
        var leaving = 0
        for (row, end) in held {
            // Its reading is known once the analysis has reported up to its end: the final
            // reading may fall exactly there.
            guard closed || reported >= end || newestEnd - end > holdLimitFrames else { break }
            var joined = row
            joined.loudness = columns(at: end)
            out.append(joined)
            leaving += 1
        }
        held.removeFirst(leaving)
        // Keep the reading the next held row may still need and everything after it.
        if let first = held.first?.end, let keep = readings.lastIndex(where: { $0.frame <= first }) {
            readings.removeFirst(keep)
        }
    }

    /// The columns for a row ending at `end`: the latest reading at or before it, if it is
    /// less than an interval old.
    private func columns(at end: Int64) -> LoudnessColumns? {
        guard let r = readings.last(where: { $0.frame <= end }), end - r.frame < readingFrames else { return nil }
        return r.columns
    }
}
