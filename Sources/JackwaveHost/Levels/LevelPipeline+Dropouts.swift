import JackwaveLevelStream

/// The dropout side of the level pipeline: each row of the stream counts the dropouts (on
/// any input) that begin in its frames (`DropoutRowCounter`). The writer finds them a pass
/// or so after the frames arrive, a run of zeros only once the signal is back (up to half a
/// second later), so rows wait until the detection has passed their end
/// (`DropoutLedger.settledFrame`): the stream trails the audio by that much, the meter does
/// not. They wait `dropoutHoldSeconds` at most: a writer held up longer (a stalled disk)
/// would otherwise hold the stream back with it; a dropout found after its row has left is
/// counted in the next row.
extension LevelPipeline {
    /// The longest a row waits for the dropout detection: 2 s of stream, beyond the writer's
    /// pass (0.1–0.2 s) and the half second a run of zeros may wait for the signal.
    static let dropoutHoldSeconds = 2

    /// How far rows may leave for the dropouts' sake: what the detection has passed, or the
    /// hold's bound behind the latest block.
    var dropoutLimit: Int64? {
        guard let dropouts else { return nil }
        return max(dropouts.settledFrame, lastBlockEnd - Int64(Self.dropoutHoldSeconds * sampleRate))
    }

    /// Takes the dropouts' frames the writer has recorded since the last pass.
    func takeDropouts() {
        guard let dropouts else { return }
        dropoutRows.add(dropouts.takeForLevels())
    }

    /// Counts the dropouts into the rows from `first` on, each ending at its interval's end
    /// or the block's (`.max` for the last row of a connection).
    func countDropouts(from first: Int, blockEnd: Int64) {
        guard dropouts != nil else { return }
        let interval = aggregator.intervalFrames.map(Int64.init)
        dropoutRows.count(&rows, from: first) { row in min(blockEnd, interval.map { row.frame + $0 } ?? blockEnd) }
    }
}
