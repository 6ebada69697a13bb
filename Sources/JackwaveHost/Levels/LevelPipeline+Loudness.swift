import JackwaveDSP

/// The loudness side of the level pipeline (`--loudness`): the analysis's readings go to the
/// display as they come, and onto the stream's rows through a `LoudnessRowJoiner`, which
/// holds each row until the reading for its end is known.
extension LevelPipeline {
    /// The longest a row waits for its loudness: 10 s of stream. The analysis trails the
    /// writer's passes by a fraction of a second; a writer held up longer (a stalled disk)
    /// would otherwise hold the stream back with it.
    static let loudnessHoldSeconds = 10

    /// Records where the rows from `first` on end: at the interval's end, or the block's.
    func noteEnds(from first: Int, blockEnd: Int64) {
        guard loudness != nil else { return }
        for row in rows[first...] {
            rowEnds.append(min(blockEnd, aggregator.intervalFrames.map { row.frame + Int64($0) } ?? blockEnd))
        }
    }

    /// Takes the analysis's new readings: the latest to the display, all to the joiner.
    func pollLoudness() {
        guard let loudness else { return }
        let readings = loudness.takeReadings()
        if let last = readings.last { display?.loudness(last) }
        joiner?.take(readings)
    }

    /// Replaces `rows` by the rows that can leave now, with their loudness.
    func joinLoudness() {
        guard var joiner else { return }
        joiner.hold(rows, ends: rowEnds)
        rows.removeAll(keepingCapacity: true)
        rowEnds.removeAll(keepingCapacity: true)
        joiner.release(into: &rows)
        self.joiner = joiner
    }

    /// The end of a run with loudness, once the analysis has ended (or been given up on):
    /// writes the rows still held, with the last reading.
    func finishLoudness() {
        guard let loudness else { return }
        // Given up on: the readings still to come would race with the close.
        if !loudness.hasStopped { pollLoudness() }
        joiner?.close()
        writeRows()
    }
}
