/// Finds dropouts in what the inputs deliver: an input carrying signal that hands over exact
/// zeros for a while, or an exact copy of the period before, as a network link fills in for
/// a lost packet. Fed, off the realtime thread, the frames the writer takes, in order.
///
/// Zeros count when the run is `minimumZeroRun` to `maximumZeroRun` long with signal within
/// `edgeWindow` frames on both sides; a repeat, when a loud period (aligned from frame 0, as
/// JACK's cycles are) equals the one before, which itself differed from its predecessor, so
/// a signal periodic at the period is not reported again and again. A source that stops, a
/// quiet passage and a quantized low-level signal's few zeros are no dropouts.
public struct DropoutDetector {
    /// One dropout: the input (0-based), the frame its first affected sample has, how long.
    public struct Dropout: Equatable, Sendable, CustomStringConvertible {
        public enum Kind: String, Sendable { case zeros, `repeat` }
        public let input: Int
        public let frame: Int64
        public let frames: Int
        public let kind: Kind
        public var description: String { "in_\(input + 1): \(kind.rawValue) at frame \(frame), \(frames) frames" }

        public init(input: Int, frame: Int64, frames: Int, kind: Kind) {
            self.input = input
            self.frame = frame
            self.frames = frames
            self.kind = kind
        }
    }

    public let channels: Int
    public let thresholds: DropoutThresholds
    /// The first `listLimit` dropouts found, in frame order within each feed; later ones
    /// are only counted (`counts`), so that a link that fails for hours cannot grow the list.
    public private(set) var dropouts: [Dropout] = []
    /// How many dropouts `dropouts` keeps.
    public let listLimit: Int
    /// How many dropouts each input had.
    public private(set) var counts: [Int]
    /// Frames fed so far.
    public private(set) var framesFed: Int64 = 0

    private var inputs: [InputState]
    /// Scratch, one buffer: each input's last two periods (`InputState.slot` says which is being
    /// collected), then a plane of `blockFrames` per input, so that each input's samples are
    /// read contiguously.
    private var work: [Float]
    /// Frames split into planes at a time: 512 (128 KiB of planes at 64 channels).
    static let blockFrames = 512

    public init(channels: Int, thresholds: DropoutThresholds, listLimit: Int = 1024) {
        precondition(channels > 0 && thresholds.period > 0)
        self.channels = channels
        self.listLimit = listLimit
        self.thresholds = thresholds
        counts = [Int](repeating: 0, count: channels)
        inputs = [InputState](repeating: InputState(), count: channels)
        work = [Float](repeating: 0, count: channels * (2 * thresholds.period + Self.blockFrames))
    }

    /// Feeds `frames` interleaved frames (`samples.count` must be `frames × channels`);
    /// returns the dropouts found in them, in frame order (also kept in `dropouts`, up to
    /// `listLimit`). A dropout is found once it is decided: a run of zeros when the signal
    /// is back, up to half a second after the run began; a repeat at the end of its period.
    @discardableResult
    public mutating func feed(_ samples: UnsafeBufferPointer<Float>, frames: Int) -> [Dropout] {
        precondition(samples.count >= frames * channels)
        var found: [Dropout] = []
        guard frames > 0, let base = samples.baseAddress else { return found }
        // The states out of `self` while the scratch is borrowed: a block of frames split
        // into planes, then each input's plane in a tight loop (`InputState.take`).
        var states = inputs
        let (channels, t, period, block) = (self.channels, thresholds, thresholds.period, Self.blockFrames)
        let first = framesFed
        work.withUnsafeMutableBufferPointer { w in
            let history = w.baseAddress!, planes = history + channels * 2 * period
            for start in stride(from: 0, to: frames, by: block) {
                let n = Swift.min(block, frames - start)
                let source = base + start * channels
                for c in 0..<channels {
                    var from = source + c
                    let plane = planes + c * block
                    for f in 0..<n {
                        plane[f] = from.pointee
                        from += channels
                    }
                    states[c].take(plane, frames: n, firstFrame: first + Int64(start), input: c, t,
                                   periods: history + c * 2 * period, into: &found)
                }
            }
        }
        inputs = states
        for d in found { counts[d.input] += 1 }
        framesFed += Int64(frames)
        found.sort { ($0.frame, $0.input) < ($1.frame, $1.input) }
        dropouts.append(contentsOf: found.prefix(max(0, listLimit - dropouts.count)))
        return found
    }

    /// The same for an array.
    @discardableResult
    public mutating func feed(_ samples: [Float]) -> [Dropout] {
        samples.withUnsafeBufferPointer { feed($0, frames: $0.count / channels) }
    }

    /// Passes over `frames` frames that are not the source's (silence jackwave wrote for
    /// frames it had to drop): no dropout is looked for in them or across them, and each
    /// input's history starts again after them.
    public mutating func skip(frames: Int) {
        guard frames > 0 else { return }
        framesFed += Int64(frames)
        for c in 0..<channels { inputs[c] = InputState() }
    }

    /// The first frame at which a dropout not yet found may still begin: every dropout before it
    /// has been returned by `feed`. At most half a second and a period behind the frames fed.
    public var settledFrame: Int64 {
        inputs.reduce(framesFed) { Swift.min($0, $1.undecidedStart(framesFed: framesFed, thresholds)) }
    }
}

/// The numbers `DropoutDetector` goes by. `default(sampleRate:period:)` is what jackwave uses.
public struct DropoutThresholds: Sendable, Equatable {
    /// The JACK period: the unit of a repeat, and links lose whole packets of it.
    public var period: Int
    /// Shortest run of exact zeros that may be a dropout: 32 frames, shorter than any link's
    /// packet (JackTrip, netjack and zita-njbridge send at least 32 frames) and longer than the
    /// zeros a low-level 16-bit signal has at its zero crossings (about 6 for a 20 Hz sine 65 LSB high).
    public var minimumZeroRun: Int
    /// Longest run that is still a dropout: half a second. A link that loses more than that
    /// has a failure, which its own statistics and a disconnection tell; and zeros that go on
    /// for longer are taken as the source having stopped.
    public var maximumZeroRun: Int
    /// How close (in frames) to the run a sample at `signalLevel` must be on both sides:
    /// 32. A dropout cuts the signal off and gives it back abruptly; a source that stops
    /// fades or decays below the level first, or stays silent.
    public var edgeWindow: Int
    /// What "carrying signal" means: a sample at or above 1/512 (−54 dBFS).
    public var signalLevel: Float

    public init(period: Int, minimumZeroRun: Int = 32, maximumZeroRun: Int, edgeWindow: Int = 32,
                signalLevel: Float = 1.0 / 512) {
        self.period = period
        self.minimumZeroRun = minimumZeroRun
        self.maximumZeroRun = maximumZeroRun
        self.edgeWindow = edgeWindow
        self.signalLevel = signalLevel
    }

    /// jackwave's thresholds at a server's rate and period.
    public static func `default`(sampleRate: Int, period: Int) -> DropoutThresholds {
        DropoutThresholds(period: period, maximumZeroRun: sampleRate / 2)
    }
}

/// One input's state in `DropoutDetector`. Plain values (frames, with -1 or `.min` for
/// none), so that the per-sample loop keeps them in registers.
struct InputState {
    /// The frame of the last sample at or above the signal level (`noFrame`: none yet).
    var lastLoud = InputState.noFrame
    /// The current run of zeros: its first frame (-1: none) and whether it began next to signal.
    var zeroStart: Int64 = -1
    var zeroRunAbrupt = false
    /// A run that ended, waiting for signal within the edge window after it (start -1: none).
    var pendingStart: Int64 = -1
    var pendingFrames = 0
    var pendingEnd: Int64 = 0
    /// Which half of the input's history holds the period being collected; how much of it
    /// is filled, whether it equals the period before so far, whether the period before
    /// equalled its own predecessor, its peak, and how many periods have been completed.
    var slot = 0
    var filled = 0
    var matchesPrevious = true
    var previousRepeated = false
    var currentPeak: Float = 0
    var periodsSeen = 0

    /// Far enough back that `frame - noFrame` is never within an edge window, without overflow.
    static let noFrame = Int64.min / 2

    /// The first frame of a dropout this input may still report, or `framesFed` if none.
    func undecidedStart(framesFed: Int64, _ t: DropoutThresholds) -> Int64 {
        var start = framesFed
        if pendingStart >= 0 { start = Swift.min(start, pendingStart) }
        if zeroStart >= 0, zeroRunAbrupt, framesFed - zeroStart <= Int64(t.maximumZeroRun) { start = Swift.min(start, zeroStart) }
        // The period being collected may turn out to repeat the one before.
        if periodsSeen >= 2 { start = Swift.min(start, framesFed - Int64(filled)) }
        return start
    }

    /// Takes `frames` samples of this input from `x`, the first at frame `firstFrame`, and
    /// appends the dropouts found; `periods` is this input's two periods of history. Where no
    /// run of zeros waits for the signal, whole 16-sample vectors are checked at once
    /// (`DropoutScan`): with no zero and no run going on, or all zeros, only a few values can
    /// change. Anything else goes sample by sample.
    mutating func take(_ x: UnsafePointer<Float>, frames: Int, firstFrame: Int64, input: Int,
                       _ t: DropoutThresholds, periods: UnsafeMutablePointer<Float>, into found: inout [DropoutDetector.Dropout]) {
        var s = self  // locals for the loop; stored back at the end
        let level = t.signalLevel, edge = Int64(t.edgeWindow), period = t.period
        let shortest = t.minimumZeroRun, longest = t.maximumZeroRun
        var current = periods + s.slot * period, previous = periods + (1 - s.slot) * period
        var f = 0
        while f < frames {
            let stretch = Swift.min(frames - f, period - s.filled) & ~(DropoutScan.width - 1)
            let scan = stretch > 0 && s.pendingStart < 0
                ? DropoutScan(x + f, count: stretch, previous: previous + s.filled, current: current + s.filled) : nil
            if let scan, scan.allZero || (!scan.anyZero && s.zeroStart < 0) {
                if scan.allZero && s.zeroStart < 0 {
                    s.zeroStart = firstFrame + Int64(f)
                    s.zeroRunAbrupt = s.zeroStart - s.lastLoud <= edge
                }
                if let k = scan.lastIndex(in: x + f, atLeast: level) { s.lastLoud = firstFrame + Int64(f + k) }
                if scan.differs { s.matchesPrevious = false }
                s.currentPeak = Swift.max(s.currentPeak, scan.peak)
                s.filled += stretch
                f += stretch
                if s.filled == period {
                    s.endPeriod(at: firstFrame + Int64(f - 1), input: input, t, zerosFound: false, into: &found)
                    swap(&current, &previous)
                }
                continue
            }
            defer { f += 1 }
            let v = x[f]
            let frame = firstFrame + Int64(f)
            let loud = abs(v) >= level
            if loud { s.lastLoud = frame }
            var zeros: DropoutDetector.Dropout?
            // A finished run of zeros waits for the signal to come back close to its end.
            if s.pendingStart >= 0 {
                if loud {
                    zeros = .init(input: input, frame: s.pendingStart, frames: s.pendingFrames, kind: .zeros)
                    s.pendingStart = -1
                } else if frame - s.pendingEnd >= edge {
                    s.pendingStart = -1
                }
            }
            if v == 0 {
                if s.zeroStart < 0 {
                    s.zeroStart = frame
                    s.zeroRunAbrupt = frame - s.lastLoud <= edge
                }
            } else if s.zeroStart >= 0 {
                let length = Int(frame - s.zeroStart)
                if s.zeroRunAbrupt, length >= shortest, length <= longest {
                    if loud {
                        zeros = .init(input: input, frame: s.zeroStart, frames: length, kind: .zeros)
                    } else {
                        (s.pendingStart, s.pendingFrames, s.pendingEnd) = (s.zeroStart, length, frame)
                    }
                }
                s.zeroStart = -1
            }
            if let zeros { found.append(zeros) }
            // The period being collected, compared with the one before as it comes.
            if s.matchesPrevious && v != previous[s.filled] { s.matchesPrevious = false }
            current[s.filled] = v
            s.currentPeak = Swift.max(s.currentPeak, abs(v))
            s.filled += 1
            guard s.filled == period else { continue }
            s.endPeriod(at: frame, input: input, t, zerosFound: zeros != nil, into: &found)
            swap(&current, &previous)
        }
        self = s
    }

    /// The period ends at `frame`: a repeat if it equalled the period before, after two periods
    /// of history, unless the period before repeated its own predecessor (a periodic signal, or
    /// a second repeat of one lost packet) or a zeros dropout was found at the same frame. The
    /// caller swaps its pointers to the two periods.
    mutating func endPeriod(at frame: Int64, input: Int, _ t: DropoutThresholds, zerosFound: Bool,
                            into found: inout [DropoutDetector.Dropout]) {
        if periodsSeen >= 2, matchesPrevious, currentPeak >= t.signalLevel, !previousRepeated, !zerosFound {
            found.append(.init(input: input, frame: frame + 1 - Int64(t.period), frames: t.period, kind: .repeat))
        }
        previousRepeated = matchesPrevious
        matchesPrevious = true
        filled = 0
        currentPeak = 0
        periodsSeen += 1
        slot = 1 - slot
    }
}
