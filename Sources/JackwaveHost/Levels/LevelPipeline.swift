import JackwaveAnalysis
import JackwaveDSP
import JackwaveEngine
import JackwaveLevelStream
import JackwaveRecording
import JackwaveRunSupport
import JackwaveVocabulary

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
/// complete and queues them for the stream's own thread (`LevelStreamWriter`, queued), so
/// that a full disk or a reader that stops reading never holds up this thread; each `tick`
/// lets the meter draw a frame if one is due. Main thread only.
///
/// The stream fails alone: a write error is said at once (a line, a `levels_failed` event),
/// the stream stops and the recording goes on; the run exits 1 at its end. Only when the
/// stream is what the run is for (`endsRun`: it neither records nor streams) does its
/// failure end the run, as a filter's closed output ends it. Rows a stalled reader had no
/// room for are dropped, counted and said (`levels_dropped`).
public final class LevelPipeline {
    /// The stream's write failure, once there is one (exit 1 at the end).
    public internal(set) var failure: String?
    /// Whether the stream's failure ends the run: nothing else is written (no file, no
    /// stream), so the level stream is the run's output.
    var endsRun = false
    /// Where the stream's failures and drops are told as events, if anywhere.
    var events: EventLog?
    /// Lines waiting for the next `drain`'s `report`: the stream's own, told on the way.
    private var streamLines: [String] = []
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
    /// on the run's timeline); returns the stream's failure when it ends the run (`endsRun`).
    /// `report` gets a line for each run of lost blocks, and the stream's own lines.
    func drain(_ engine: RealtimeEngine, timelineBase: Int64, report: (String) -> Void) -> String? {
        guard let ring = engine.levelRing, !closed else { return endsRun ? failure : nil }
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
        for line in lostLines + streamLines { report(line) }
        streamLines.removeAll()
        return endsRun ? failure : nil
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
        if let stream {
            stream.close()
            takeStreamReports()
        }
        display?.close()
    }

    /// The stream's lines after the last drain (`close`'s): said by the end of the run.
    func takeLines() -> [String] {
        defer { streamLines.removeAll() }
        return streamLines
    }

    /// Turns what the stream's output told into lines (said with the next drain's) and
    /// events, at the end of the latest block.
    private func takeStreamReports() {
        guard let stream else { return }
        let path = stream.displayName
        for report in stream.takeReports() {
            switch report {
            case .dropping:
                streamLines.append("levels: \(path) is not taking its rows; rows are dropped, counted, until it does (the recording goes on)")
            case let .dropped(lines):
                streamLines.append("levels: \(counted(lines, "row")) dropped: \(path) did not take them in time")
                events?.emit(.levelsDropped, frame: lastBlockEnd, [("path", .string(path)), ("rows", .int(Int64(lines)))])
            case let .failed(reason):
                failure = failure ?? stream.failure
                if !endsRun {
                    streamLines.append("levels: writing \(path) failed: \(reason); the level stream stops there (the recording goes on)")
                }
                events?.emit(.levelsFailed, frame: lastBlockEnd, [("path", .string(path)), ("reason", .string(reason))])
            }
        }
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
        guard let stream else { return }
        if !rows.isEmpty {
            stream.append(rows)
            rows.removeAll(keepingCapacity: true)
            stream.flush()
        }
        takeStreamReports()
    }
}
