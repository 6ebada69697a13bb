/// Counts MIDI events into a level stream's rows (`--midi`): each cycle's events, per
/// input, go to the row holding the cycle's first frame (or the next row, if none holds it).
/// Count rows in order, and only once every cycle beginning before their end has been added.
public struct MidiRowCounter: Sendable {
    /// Cycles added and not yet counted: their first frame and events per input.
    private var blocks: [(start: Int64, events: [Int])] = []
    public let inputs: Int

    public init(inputs: Int) { self.inputs = inputs }

    /// A cycle's events, cycles in frame order.
    public mutating func add(start: Int64, events: [Int]) {
        guard events.contains(where: { $0 > 0 }) else { return }
        blocks.append((start, events))
    }

    /// Sets the counts of `rows[first...]`, in order; `end(row)` is a row's end (exclusive).
    public mutating func count(_ rows: inout [LevelRow], from first: Int, end: (LevelRow) -> Int64) {
        for i in rows.indices.dropFirst(first) where rows[i].gapSeconds == nil {
            let rowEnd = end(rows[i])
            var sum = [Int](repeating: 0, count: inputs)
            let n = blocks.prefix { $0.start < rowEnd }.count
            for block in blocks.prefix(n) {
                for m in 0..<min(inputs, block.events.count) { sum[m] += block.events[m] }
            }
            blocks.removeFirst(n)
            rows[i].midiEvents = sum
        }
    }
}
