import JackwaveAnalysis
import JackwaveDSP
import JackwaveEngine
import JackwaveLevelStream
import JackwaveRecording

/// The main thread's consumer of the level ring, for the whole run: feeds the `--levels`
/// stream and the live display (the terminal's meter) from the same blocks, and reports lost
/// blocks.
///
/// Blocks are placed on the run's timeline (frames received since the run's frame 0, across
/// reconnects): each connection's blocks come with that connection's place on it. A
/// reconnect leaves a gap row in the stream (`LevelRow.gapSeconds`: the wall-clock time the
/// server was away), never invented levels, and the next connection's rows go on from where
/// the last one's frames ended, their intervals counted from there.
///
/// With dropout detection, each row counts the dropouts that begin in it; rows then wait
/// (as armed rows wait for their take) until the writer's detection has passed their end
/// (`LevelPipeline+Dropouts`).
///
/// Each `drain` takes every block the callback has published, formats the rows they
/// complete and writes them with one `write(2)`; each `tick` lets the meter draw a frame if
/// one is due. Main thread only.
public final class LevelPipeline {
    /// The stream's write failure, once there is one (the run then stops with exit 1).
    public internal(set) var failure: String?
    let sampleRate: Int
    private let channels: Int
    let stream: LevelStreamWriter?
    private let intervalFrames: Int?
    var aggregator: LevelAggregator
    let display: LevelDisplay?
    private var gaps: LevelGapTracker
    var rows: [LevelRow] = []
    private var peaks: [Float]
    /// Armed: which take each row belongs to. Rows wait (in `pending`) until the writer has
    /// decided their frames, a pass or so; the meter does not.
    let takes: TakeLedger?
    private var pending: [(start: Int64, frames: Int, peaks: [Float])] = []
    /// The live loudness analysis whose readings join the rows and the display (`--loudness`).
    /// See `LevelPipeline+Loudness`.
    let loudness: LoudnessFeed?
    /// Rows waiting for their loudness, and where each row of `rows` ends.
    var joiner: LoudnessRowJoiner?
    var rowEnds: [Int64] = []
    /// The run's dropouts, whose frames label the rows (`LevelPipeline+Dropouts`), and what
    /// counts them into the rows.
    let dropouts: DropoutLedger?
    var dropoutRows = DropoutRowCounter()
    /// MIDI inputs counted into the rows (`--midi`), by the blocks the callback published.
    private var midiRows: MidiRowCounter?
    /// The end of the latest block, the last row's end at the close.
    private(set) var lastBlockEnd: Int64 = 0
    private var closed = false

    /// Consumes blocks of `channels` peaks at `sampleRate`: rows for `stream` (one per
    /// block, or one per `intervalFrames`), blocks for `display`. At least one of them.
    /// With `loudness`, its readings go to the display and onto the rows; with `takes`, rows
    /// are labelled with their take; with `dropouts`, with the dropouts that begin in them.
    public init(channels: Int, sampleRate: Int, stream: LevelStreamWriter?, intervalFrames: Int?,
                display: LevelDisplay?, loudness: LoudnessFeed?, takes: TakeLedger?, dropouts: DropoutLedger? = nil,
                midiInputs: Int = 0) {
        precondition(channels > 0 && (stream != nil || display != nil))
        self.sampleRate = sampleRate
        self.channels = channels
        peaks = Array(repeating: 0, count: channels)
        self.intervalFrames = intervalFrames
        aggregator = LevelAggregator(channels: channels, intervalFrames: intervalFrames)
        gaps = LevelGapTracker(sampleRate: sampleRate)
        self.stream = stream
        self.display = display
        self.loudness = loudness
        self.takes = takes
        self.dropouts = stream == nil ? nil : dropouts
        midiRows = stream != nil && midiInputs > 0 ? MidiRowCounter(inputs: midiInputs) : nil
        if let loudness, stream != nil {
            joiner = LoudnessRowJoiner(readingFrames: loudness.readingFrames,
                                       holdLimitFrames: Self.loudnessHoldSeconds * loudness.sampleRate)
        }
    }

    /// A connection after the first begins at `timelineBase`, after the server was away for
    /// `gapSeconds` (wall clock): a gap row, and rows counted afresh from there.
    func beginConnection(timelineBase: Int64, gapSeconds: Double) {
        aggregator = LevelAggregator(channels: channels, intervalFrames: intervalFrames, origin: timelineBase)
        gaps = LevelGapTracker(sampleRate: sampleRate, from: timelineBase)
        guard stream != nil else { return }
        var gap = LevelRow(frame: timelineBase, peaks: peaks)
        gap.gapSeconds = gapSeconds
        rows.append(gap)
        noteEnds(from: rows.count - 1, blockEnd: timelineBase)
        writeRows()
    }

    /// Whether blocks wait in `pending` before they become rows: until the writer has decided
    /// their take, or looked at them for dropouts.
    private var rowsWait: Bool { stream != nil && (takes != nil || dropouts != nil) }

    /// The frame before which rows may leave `pending`: what both the takes and the dropout
    /// detection have decided; nil when rows do not wait.
    private var decidedFrame: Int64? {
        switch (takes?.decidedFrames.load(ordering: .acquiring), dropoutLimit) {
        case let (t?, d?): min(t, d)
        case let (t?, nil): t
        case let (nil, d?): d
        case (nil, nil): nil
        }
    }

    /// Takes every block `engine`'s callback has published (its frames from `timelineBase`
    /// on the run's timeline); returns a failure message if the stream could not be written.
    /// `report` gets a line for each run of lost blocks.
    func drain(_ engine: RealtimeEngine, timelineBase: Int64, report: (String) -> Void) -> String? {
        guard let ring = engine.levelRing, !closed else { return failure }
        let regions = ring.readableRegions()
        var lostLines: [String] = []
        for (base, count) in [(regions.first, regions.firstCount), (regions.second, regions.secondCount)] {
            for slot in 0..<count {
                let records = base + slot * ring.width
                let start = timelineBase + records[0].startFrame
                let frames = Int(records[0].frameCount)
                for c in 0..<channels { peaks[c] = records[c].peak }
                if midiRows != nil {
                    midiRows!.add(start: start, events: (0..<midiRows!.inputs).map { m in
                        channels + m < ring.width ? Int(records[channels + m].peak) : 0
                    })
                }
                if let lost = gaps.check(startFrame: start, frameCount: frames) { lostLines.append(lost) }
                if rowsWait {
                    pending.append((start, frames, peaks))
                } else if stream != nil {
                    let before = rows.count
                    aggregator.add(startFrame: start, frameCount: frames, peaks: peaks, into: &rows)
                    noteEnds(from: before, blockEnd: start + Int64(frames))
                    countMidi(from: before, blockEnd: start + Int64(frames))
                }
                lastBlockEnd = start + Int64(frames)
                display?.levels(startFrame: start, frameCount: frames, peaks: peaks)
            }
        }
        ring.commitRead(regions.count)
        // The limit before the dropouts it covers: every dropout before it is in the ledger.
        let decided = decidedFrame
        takeDropouts()
        releaseDecided(upTo: decided)
        pollLoudness()
        writeRows()
        for line in lostLines { report(line) }
        return failure
    }

    /// Lets the display draw a frame if one is due.
    func tick(status: StatusSnapshot) {
        display?.tick(status: status)
    }

    /// The connection's last drain, after its callback and its writer have stopped: writes its
    /// last partial interval and reports blocks lost at its end. The stream stays open.
    func endConnection(_ engine: RealtimeEngine, timelineBase: Int64, report: (String) -> Void) {
        guard !closed else { return }
        _ = drain(engine, timelineBase: timelineBase, report: report)
        if stream != nil {
            // Every frame of the connection is decided now: those rows take what it knows.
            releaseDecided(upTo: .max)
            let before = rows.count
            aggregator.finish(into: &rows)
            noteEnds(from: before, blockEnd: lastBlockEnd)
            countDropouts(from: before, blockEnd: .max)
            countMidi(from: before, blockEnd: .max)
            labelTakes()
            writeRows()
        }
        if let lost = gaps.close(droppedBlocks: engine.signals.droppedLevelBlocks.load(ordering: .relaxed)) {
            report(lost)
        }
    }

    /// The end of the run, once the loudness analysis has ended (or been given up on):
    /// writes the rows still waiting for their loudness, closes the stream and leaves the
    /// display as a terminal expects it.
    public func close() {
        guard !closed else { return }
        closed = true
        finishLoudness()
        if let stream, failure == nil { failure = stream.close() }
        display?.close()
    }

    /// Feeds the stream the blocks the writer has decided (all of them when not armed),
    /// and labels the rows they complete with their take.
    private func releaseDecided(upTo decided: Int64?) {
        guard let decided, !pending.isEmpty else { return }
        var used = 0
        for block in pending where block.start + Int64(block.frames) <= decided {
            let before = rows.count
            aggregator.add(startFrame: block.start, frameCount: block.frames, peaks: block.peaks, into: &rows)
            noteEnds(from: before, blockEnd: block.start + Int64(block.frames))
            countDropouts(from: before, blockEnd: block.start + Int64(block.frames))
            countMidi(from: before, blockEnd: block.start + Int64(block.frames))
            used += 1
        }
        pending.removeFirst(used)
        labelTakes()
    }

    /// Sets the MIDI counts of the rows from `first` on (see `MidiRowCounter`).
    private func countMidi(from first: Int, blockEnd: Int64) {
        guard midiRows != nil else { return }
        let interval = aggregator.intervalFrames.map(Int64.init)
        midiRows!.count(&rows, from: first) { row in min(blockEnd, interval.map { row.frame + $0 } ?? blockEnd) }
    }

    private func labelTakes() {
        guard let takes else { return }
        for i in rows.indices where rows[i].take == nil && rows[i].gapSeconds == nil {
            rows[i].take = takes.take(atFrame: rows[i].frame)
        }
    }

    func writeRows() {
        if loudness != nil { joinLoudness() }
        guard let stream, !rows.isEmpty else { return }
        stream.append(rows)
        rows.removeAll(keepingCapacity: true)
        if failure == nil { failure = stream.flush() }
    }
}
