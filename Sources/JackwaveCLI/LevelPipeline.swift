import JackwaveDSP
import JackwaveHost

/// The main thread's consumer of the level ring: feeds the `--levels` stream and the live
/// meter from the same blocks, and reports lost blocks.
///
/// Each `drain` takes every block the callback has published, formats the rows they
/// complete and writes them with one `write(2)`; each `tick` lets the meter draw a frame
/// if one is due. Main thread only.
final class LevelPipeline {
    /// The stream's write failure, once there is one (the run then stops with exit 1).
    private(set) var failure: String?
    private let sampleRate: Int
    private let channels: Int
    private let stream: LevelStreamWriter?
    private var aggregator: LevelAggregator
    private let meter: LiveMeter?
    private var gaps: LevelGapTracker
    private var rows: [LevelRow] = []
    private var peaks: [Float]
    private var closed = false

    /// Whether a run with these options consumes levels at all.
    static func wanted(_ o: RunOptions, stderrIsTerminal: Bool) -> Bool {
        o.levelsPath != nil || (o.meter ?? stderrIsTerminal)
    }

    /// Opens the level stream (creating its file and writing the CSV header) and prepares
    /// the meter. `inputNames` are the ports' short names (`in_1`…), the CSV's columns;
    /// `connections` gives, per input, the full names of the ports connected to it now.
    init(options: RunOptions, sampleRate: Int, inputNames: [String],
         connections: @escaping () -> [[String]], stderrIsTerminal: Bool) throws(LevelStreamError) {
        precondition(!inputNames.isEmpty)
        self.sampleRate = sampleRate
        channels = inputNames.count
        peaks = Array(repeating: 0, count: inputNames.count)
        aggregator = LevelAggregator(
            channels: inputNames.count,
            intervalFrames: options.levelIntervalMilliseconds.map {
                LevelAggregator.intervalFrames(milliseconds: $0, sampleRate: sampleRate)
            })
        gaps = LevelGapTracker(sampleRate: sampleRate)
        if let path = options.levelsPath {
            let formatter = LevelStreamFormatter(
                format: LevelStreamFormatter.format(forPath: path, explicit: options.levelsFormat),
                sampleRate: sampleRate, channelNames: inputNames)
            stream = try LevelStreamWriter(path: path, formatter: formatter)
        } else {
            stream = nil
        }
        meter = (options.meter ?? stderrIsTerminal)
            ? LiveMeter(names: inputNames, sampleRate: sampleRate, connections: connections)
            : nil
    }

    /// Takes every block the callback has published; returns a failure message if the
    /// stream could not be written.
    func drain(_ engine: RealtimeEngine) -> String? {
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
                if stream != nil { aggregator.add(startFrame: start, frameCount: frames, peaks: peaks, into: &rows) }
                meter?.feed(startFrame: start, frameCount: frames, peaks: peaks)
            }
        }
        ring.commitRead(regions.count)
        writeRows()
        for line in lostLines { printAboveMeter("jackwave: \(line)") }
        return failure
    }

    /// Redraws the meter if a frame is due.
    func tick(status: StatusSnapshot) {
        meter?.tick(status: status)
    }

    /// The last drain, after the callback has stopped: writes the last partial interval,
    /// reports blocks lost at the end, closes the stream and restores the terminal.
    func drainAndClose(_ engine: RealtimeEngine) {
        guard !closed else { return }
        _ = drain(engine)
        closed = true
        if stream != nil {
            aggregator.finish(into: &rows)
            writeRows()
        }
        if let lost = gaps.close(droppedBlocks: engine.signals.droppedLevelBlocks.load(ordering: .relaxed)) {
            printAboveMeter("jackwave: \(lost)")
        }
        if let stream, failure == nil { failure = stream.close() }
        meter?.close()
    }

    /// Prints a line without tearing the meter.
    func printAboveMeter(_ line: String) {
        if let meter { meter.printAbove(line) } else { Console.write(line + "\n") }
    }

    private func writeRows() {
        guard let stream, !rows.isEmpty else { return }
        stream.append(rows)
        rows.removeAll(keepingCapacity: true)
        if failure == nil { failure = stream.flush() }
    }
}

/// A level stream that could not be opened or written.
struct LevelStreamError: Error {
    let message: String
}
