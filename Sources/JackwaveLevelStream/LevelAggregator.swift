/// One row of a level stream: the peak of every channel over a span that starts at `frame`.
public struct LevelRow: Equatable, Sendable {
    /// The span's first frame, counted from the start of the run (or of the file).
    public var frame: Int64
    /// Linear peak per channel (1.0 = full scale).
    public var peaks: [Float]
    /// Armed runs: the take recording at `frame` (0 while armed), nil when not armed.
    public var take: Int?
    /// The loudness at the row's end, in a stream with loudness columns (`--loudness`); nil
    /// where the analysis had none (before its first 100 ms, or after it fell behind).
    public var loudness: LoudnessColumns? = nil
    /// A gap row (`--reconnect`): the wall-clock seconds the server was away before `frame`;
    /// such a row holds no levels. Nil for a row of levels.
    public var gapSeconds: Double? = nil
    /// In a stream with a dropout column: the dropouts (on any input) that begin in the row's
    /// frames, or in frames before it that no row holds. Nil elsewhere.
    public var dropouts: Int? = nil
    /// In a stream with MIDI columns (`--midi`): the events each MIDI input received in the
    /// row's cycles (a cycle's events count in the row holding its first frame). Nil elsewhere.
    public var midiEvents: [Int]? = nil

    public init(frame: Int64, peaks: [Float]) {
        self.frame = frame
        self.peaks = peaks
    }
}

/// Turns per-block peaks into level-stream rows: one a block, or one per fixed interval of
/// frames counted from `origin`, holding the maximum of the peaks in it.
///
/// A block straddling an interval boundary counts in every interval it overlaps, so a row
/// never shows less than its interval's true peak (a meter must not hide one); intervals no
/// block touched get no row. Shared by the live levels and `jackwave levels`, so the two
/// agree. It allocates rows: not for the realtime thread.
public struct LevelAggregator {
    /// Channels per block and per row.
    public let channels: Int
    /// Frames per interval, or nil for one row per block.
    public let intervalFrames: Int?

    /// Where interval 0 begins.
    public let origin: Int64
    /// The interval being filled: its index, the running maxima, and whether it is open.
    private var openIndex: Int64 = 0
    private var openPeaks: [Float]
    private var isOpen = false

    /// `intervalFrames` nil or at least 1; intervals counted from frame `origin` (a run's
    /// frame 0, or where a reconnected run's connection began on its timeline).
    public init(channels: Int, intervalFrames: Int?, origin: Int64 = 0) {
        precondition(channels > 0)
        precondition(intervalFrames.map { $0 > 0 } ?? true)
        self.channels = channels
        self.intervalFrames = intervalFrames
        self.origin = origin
        self.openPeaks = Array(repeating: 0, count: channels)
    }

    /// Frames in `milliseconds` at `sampleRate`, rounded to the nearest whole frame and
    /// never less than one (an interval shorter than a frame means "every frame").
    public static func intervalFrames(milliseconds: Double, sampleRate: Int) -> Int {
        max(1, Int((milliseconds * Double(sampleRate) / 1000).rounded()))
    }

    /// Adds one block (`peaks.count == channels`, frames `startFrame ..< startFrame + frameCount`)
    /// and appends every row it completes. Blocks must come in increasing frame order;
    /// gaps between them are allowed.
    public mutating func add<Peaks: Collection<Float>>(startFrame: Int64, frameCount: Int, peaks: Peaks,
                                                        into rows: inout [LevelRow]) {
        precondition(peaks.count == channels)
        guard frameCount > 0 else { return }
        guard let interval = intervalFrames.map(Int64.init) else {
            rows.append(LevelRow(frame: startFrame, peaks: Array(peaks)))
            return
        }
        let end = startFrame - origin + Int64(frameCount)
        let first = (startFrame - origin) / interval
        let last = (end - 1) / interval
        if isOpen && openIndex < first { emitOpen(into: &rows) }
        for k in first...last {
            if !isOpen {
                openIndex = k
                for c in 0..<channels { openPeaks[c] = 0 }
                isOpen = true
            }
            var c = 0
            for p in peaks {
                openPeaks[c] = max(openPeaks[c], p)
                c += 1
            }
            // Complete once the stream has reached the interval's end.
            if (k + 1) * interval <= end { emitOpen(into: &rows) }
        }
    }

    /// Appends the last, partial interval, if it holds any block. Call once, at the end.
    public mutating func finish(into rows: inout [LevelRow]) {
        if isOpen { emitOpen(into: &rows) }
    }

    private mutating func emitOpen(into rows: inout [LevelRow]) {
        rows.append(LevelRow(frame: origin + openIndex * Int64(intervalFrames ?? 1), peaks: openPeaks))
        isOpen = false
    }
}
