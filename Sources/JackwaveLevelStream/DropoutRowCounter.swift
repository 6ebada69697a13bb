/// Counts dropouts into a level stream's rows, the same way live (`LevelPipeline`) and
/// offline: each row gets the dropouts that begin before its end and no earlier row counted,
/// so one in frames no row holds goes to the next row. Count rows in order, and only once
/// every dropout beginning before their end has been added.
public struct DropoutRowCounter: Sendable {
    /// The first frames of the dropouts added and not yet counted, ascending.
    private var frames: [Int64] = []

    public init() {}

    /// Dropouts found, by their first frame, in any order.
    public mutating func add(_ dropoutFrames: [Int64]) {
        guard !dropoutFrames.isEmpty else { return }
        frames.append(contentsOf: dropoutFrames)
        frames.sort()
    }

    /// Sets the count of `rows[first...]`, in order; `end(row)` is a row's end (exclusive).
    /// Gap rows (`--reconnect`) hold no levels and count nothing.
    public mutating func count(_ rows: inout [LevelRow], from first: Int, end: (LevelRow) -> Int64) {
        for i in rows.indices.dropFirst(first) where rows[i].gapSeconds == nil {
            rows[i].dropouts = take(before: end(rows[i]))
        }
    }

    /// The count of the next row, which ends (exclusive) at `end`: the dropouts that begin
    /// before it, no longer waiting.
    public mutating func take(before end: Int64) -> Int {
        let n = frames.prefix { $0 < end }.count
        frames.removeFirst(n)
        return n
    }

    /// Dropouts added and not yet counted into a row.
    public var waiting: Int { frames.count }
}
