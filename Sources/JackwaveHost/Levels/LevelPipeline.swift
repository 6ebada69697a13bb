import JackwaveDSP
import JackwaveLevelStream

/// The main thread's consumer of the level ring: feeds the `--levels` stream and the live
/// display (the terminal's meter) from the same blocks, and reports lost blocks.
///
/// Each `drain` takes every block the callback has published, formats the rows they
/// complete and writes them with one `write(2)`; each `tick` lets the meter draw a frame
/// if one is due. Main thread only.
public final class LevelPipeline {
    /// The stream's write failure, once there is one (the run then stops with exit 1).
    public internal(set) var failure: String?
    private let sampleRate: Int
    private let channels: Int
    let stream: LevelStreamWriter?
    var aggregator: LevelAggregator
    let display: LevelDisplay?
    private var gaps: LevelGapTracker
    var rows: [LevelRow] = []
    private var peaks: [Float]
    private var closed = false
    /// Armed: the take logic that says which take each row belongs to. Rows wait (in
    /// `pending`) until the writer has decided their frames, a pass or so; the meter does not.
    public var takes: TakeController?
    private var pending: [(start: Int64, frames: Int, peaks: [Float])] = []
    /// The live loudness analysis whose readings join the rows and the display
    /// (`--loudness`); set before the run. See `LevelPipeline+Loudness`.
    public var loudness: LoudnessFeed? {
        didSet { startLoudness() }
    }
    /// Rows waiting for their loudness, and where each row of `rows` ends.
    var joiner: LoudnessRowJoiner?
    var rowEnds: [Int64] = []
    /// The end of the latest block, the last row's end at the close.
    private var lastBlockEnd: Int64 = 0

    /// Consumes blocks of `channels` peaks at `sampleRate`: rows for `stream` (one per
    /// block, or one per `intervalFrames`), blocks for `display`. At least one of them.
    public init(channels: Int, sampleRate: Int, stream: LevelStreamWriter?, intervalFrames: Int?,
                display: LevelDisplay?) {
        precondition(channels > 0 && (stream != nil || display != nil))
        self.sampleRate = sampleRate
        self.channels = channels
        peaks = Array(repeating: 0, count: channels)
        aggregator = LevelAggregator(channels: channels, intervalFrames: intervalFrames)
        gaps = LevelGapTracker(sampleRate: sampleRate)
        self.stream = stream
        self.display = display
    }

    /// Takes every block the callback has published; returns a failure message if the
    /// stream could not be written.
    /// `report` gets a line for each run of lost blocks.
    func drain(_ engine: RealtimeEngine, report: (String) -> Void) -> String? {
        guard let ring = engine.levelRing, !closed else { return failure }
        let regions = ring.readableRegions()
        var lostLines: [String] = []
        for (base, count) in [(regions.first, regions.firstCount), (regions.second, regions.secondCount)] {
            for slot in 0..<count {
                let records = base + slot * ring.width
                let start = records[0].startFrame
                let frames = Int(records[0].frameCount)
                for c in 0..<channels { peaks[c] = records[c].peak }
                if let lost = gaps.check(startFrame: start, frameCount: frames) { lostLines.append(lost) }
                if stream != nil && takes != nil {
                    pending.append((start, frames, peaks))
                } else if stream != nil {
                    let before = rows.count
                    aggregator.add(startFrame: start, frameCount: frames, peaks: peaks, into: &rows)
                    noteEnds(from: before, blockEnd: start + Int64(frames))
                }
                lastBlockEnd = start + Int64(frames)
                display?.levels(startFrame: start, frameCount: frames, peaks: peaks)
            }
        }
        ring.commitRead(regions.count)
        releaseDecided(upTo: takes.map { Int64($0.decidedFrames.load(ordering: .acquiring)) })
        pollLoudness()
        writeRows()
        for line in lostLines { report(line) }
        return failure
    }

    /// Lets the display draw a frame if one is due.
    func tick(status: StatusSnapshot) {
        display?.tick(status: status)
    }

    /// The last drain, after the callback has stopped: writes the last partial interval,
    /// reports blocks lost at the end, closes the stream and restores the terminal.
    func drainAndClose(_ engine: RealtimeEngine, report: (String) -> Void) {
        guard !closed else { return }
        _ = drain(engine, report: report)
        closed = true
        if stream != nil {
            // The writer may still be deciding the last pass: those rows take what it knows.
            releaseDecided(upTo: .max)
            let before = rows.count
            aggregator.finish(into: &rows)
            noteEnds(from: before, blockEnd: lastBlockEnd)
            labelTakes()
            writeRows()
        }
        if let lost = gaps.close(droppedBlocks: engine.signals.droppedLevelBlocks.load(ordering: .relaxed)) {
            report(lost)
        }
        // With loudness, the stream stays open for the rows still waiting for theirs
        // (`finishLoudness`, once the analysis has ended).
        if let stream, failure == nil, loudness == nil { failure = stream.close() }
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
            used += 1
        }
        pending.removeFirst(used)
        labelTakes()
    }

    private func labelTakes() {
        guard let takes else { return }
        for i in rows.indices where rows[i].take == nil { rows[i].take = takes.take(atFrame: rows[i].frame) }
    }

    func writeRows() {
        if loudness != nil { joinLoudness() }
        guard let stream, !rows.isEmpty else { return }
        stream.append(rows)
        rows.removeAll(keepingCapacity: true)
        if failure == nil { failure = stream.flush() }
    }
}
