import Synchronization

/// An armed run's takes across all its connections: the one open now (a take cut by a
/// server restart goes on in its next piece after the restart), the ones that ended, and
/// which take each stretch of the run's timeline belongs to (the level stream's `take`).
///
/// Written by the writer threads (one connection's at a time) and the main thread; read by
/// any thread (the status line, OSC, the level stream). Frames are on the run's timeline.
public final class TakeLedger: Sendable {
    /// The takes kept for the summary; later ones are counted, not listed.
    static let keptTakes = 10_000
    /// Take ranges kept for `take(atFrame:)`: the level stream asks about the last second
    /// or so only, however many takes came before.
    static let keptRanges = 64

    private struct State {
        var open: TakeSummary?
        var finished: [TakeSummary] = []
        var ended = 0
        var started = 0
        /// From the block that started each take (pre-roll not included) to its end
        /// (`Int64.max` while open).
        var ranges: [(number: Int, start: Int64, end: Int64)] = []
    }
    private let state = Mutex(State())
    /// The timeline frames decided so far: every take up to here is in `take(atFrame:)`.
    /// `.releasing` after the ranges, so that a reader that loads it `.acquiring` finds them.
    public let decidedFrames = Atomic<Int64>(0)
    /// The most takes to record (`--takes`), nil for no end.
    public let maximumTakes: Int?

    public init(maximumTakes: Int?) {
        self.maximumTakes = maximumTakes
    }

    /// Whether another take may start.
    public var mayStart: Bool { maximumTakes.map { state.withLock { $0.started } < $0 } ?? true }

    /// Whether `--takes` takes have ended.
    public var allDone: Bool { maximumTakes.map { state.withLock { $0.ended } >= $0 } ?? false }

    /// Take `number` began at `firstFrame` (its pre-roll's first) for a block at `triggerFrame`.
    func began(_ number: Int, firstFrame: Int64, triggerFrame: Int64) {
        state.withLock { s in
            s.started += 1
            s.open = TakeSummary(number: number, files: FileTally(), firstFrame: firstFrame, frames: 0)
            s.ranges.append((number, triggerFrame, .max))
            if s.ranges.count > Self.keptRanges { s.ranges.removeFirst(s.ranges.count - Self.keptRanges) }
        }
    }

    /// One of the open take's files was finalized.
    package func add(_ file: RecordedFile) {
        state.withLock { s in
            guard s.open?.number == file.take else { return }
            s.open?.files.add(file.path)
            // Frames a neighbouring piece holds too (`--overlap`) are the take's once.
            s.open?.frames += file.frames - file.sharedFrames
        }
    }

    /// The open take ended at `endFrame`; nil at the end of a run during which a restart had
    /// cut it (no frame follows).
    package func ended(at endFrame: Int64?) {
        state.withLock { s in
            guard let take = s.open else { return }
            s.open = nil
            s.ended += 1
            if s.finished.count < Self.keptTakes { s.finished.append(take) }
            if let endFrame, let last = s.ranges.indices.last, s.ranges[last].end == .max {
                s.ranges[last].end = endFrame
            }
        }
    }

    /// The take recording at timeline `frame` (0 while armed); final once `decidedFrames`
    /// has passed it.
    public func take(atFrame frame: Int64) -> Int {
        state.withLock { s in s.ranges.last { frame >= $0.start && frame < $0.end }?.number ?? 0 }
    }

    /// The takes that have ended, in order (the first `keptTakes`), and how many ended.
    public var takes: (list: [TakeSummary], count: Int) { state.withLock { ($0.finished, $0.ended) } }

    /// The take open now, if any (cut by a restart, waiting to go on).
    public var openTake: TakeSummary? { state.withLock { $0.open } }
}

/// A finished take, for the summary.
public struct TakeSummary: Sendable, Equatable {
    /// Its number in the file names (`take-003.wav` is 3).
    public var number: Int
    /// Its files: one, or its pieces.
    public var files: FileTally
    /// Its first frame on the run's timeline (pre-roll included) and its frames (file rate).
    public var firstFrame: Int64
    public var frames: Int64
}
