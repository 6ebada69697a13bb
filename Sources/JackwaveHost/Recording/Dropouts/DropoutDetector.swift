/// Finds dropouts in what the inputs deliver: places where an input that was carrying
/// signal hands over exact zeros for a while, or an exact copy of the period before,
/// the way a network link fills in for a packet it lost. Non-realtime: it is fed the
/// interleaved frames the writer thread takes from the ring, in order, and keeps its own
/// frame count (frame 0 is the first frame fed).
///
/// What counts, per input (`DropoutThresholds` gives the numbers and why):
/// - **zeros**: a run of at least `minimumZeroRun` exact zeros (0.0 or -0.0) that begins
///   within `edgeWindow` frames of a sample at or above `signalLevel` and ends, within
///   `maximumZeroRun` frames, with such a sample again within `edgeWindow` frames. The
///   dropout is reported once the signal is back (a run that has not ended is pending).
/// - **repeat**: a whole period (aligned on `period` from frame 0, as JACK cycles are)
///   that equals the period before it sample for sample, when that period did not itself
///   equal the one before it (so a signal that is periodic at exactly the period, such as a
///   steady tone whose cycle divides it, is not reported again and again), and that peaks
///   at or above `signalLevel`. The first three periods fed are history only.
///
/// What does not: a source that stops (its zeros go on past `maximumZeroRun`, or they
/// follow a fade below `signalLevel`), a quiet passage, a low-level signal quantized to a
/// few exact zeros around its zero crossings (shorter than `minimumZeroRun`).
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

    public init(channels: Int, thresholds: DropoutThresholds, listLimit: Int = 1024) {
        precondition(channels > 0 && thresholds.period > 0)
        self.channels = channels
        self.listLimit = listLimit
        self.thresholds = thresholds
        counts = [Int](repeating: 0, count: channels)
        inputs = (0..<channels).map { _ in InputState(period: thresholds.period) }
    }

    /// Feeds `frames` interleaved frames (`samples.count` must be `frames × channels`);
    /// returns the dropouts found in them, in frame order (also kept in `dropouts`, up to
    /// `listLimit`). A dropout is found once it is decided: a run of zeros when the signal
    /// is back, up to half a second after the run began; a repeat at the end of its period.
    @discardableResult
    public mutating func feed(_ samples: UnsafeBufferPointer<Float>, frames: Int) -> [Dropout] {
        precondition(samples.count >= frames * channels)
        var found: [Dropout] = []
        for c in 0..<channels {
            var state = inputs[c]
            for f in 0..<frames {
                let frame = framesFed + Int64(f)
                if let dropout = state.take(samples[f * channels + c], at: frame, input: c, thresholds) {
                    found.append(dropout)
                    counts[c] += 1
                }
            }
            inputs[c] = state
        }
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
        for c in 0..<channels { inputs[c] = InputState(period: thresholds.period) }
    }

    /// The first frame at which a dropout not yet found may still begin: every dropout that
    /// begins before it has been returned by `feed`. At most half a second (a run of zeros
    /// waiting for the signal's return) and a period (a period that may repeat the one
    /// before) behind the frames fed.
    public var settledFrame: Int64 {
        inputs.reduce(framesFed) { Swift.min($0, $1.undecidedStart(framesFed: framesFed, thresholds)) }
    }
}

/// The numbers `DropoutDetector` goes by. `default(sampleRate:period:)` is what jackwave uses.
public struct DropoutThresholds: Sendable, Equatable {
    /// The JACK period: the unit of a repeat, and links lose whole packets of it.
    public var period: Int
    /// Shortest run of exact zeros that may be a dropout: 32 frames (0.7 ms at 48 kHz),
    /// shorter than any link's packet (JackTrip and netjack send at least a period of 32, and
    /// zita-njbridge a packet of ≥ 32 frames), and longer than the exact zeros a
    /// low-level 16-bit signal has around its zero crossings (a 20 Hz sine 65 LSB high has
    /// about 6 in a row).
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

/// One input's state in `DropoutDetector`.
struct InputState {
    /// The frame of the last sample at or above the signal level (nil: none yet).
    var lastLoud: Int64?
    /// The current run of zeros: its first frame and whether it began next to signal.
    var zeroStart: Int64?
    var zeroRunAbrupt = false
    /// A run that ended, waiting for signal within the edge window after it.
    var pending: (start: Int64, frames: Int, end: Int64)?
    /// The period being collected and the two before it.
    var previous: [Float], current: [Float], beforePrevious: [Float]
    var filled = 0
    var periodsSeen = 0
    var currentPeak: Float = 0

    init(period: Int) {
        previous = [Float](repeating: 0, count: period)
        current = previous
        beforePrevious = previous
    }

    /// The first frame of a dropout this input may still report, or `framesFed` if none.
    func undecidedStart(framesFed: Int64, _ t: DropoutThresholds) -> Int64 {
        var start = framesFed
        if let p = pending { start = Swift.min(start, p.start) }
        if let z = zeroStart, zeroRunAbrupt, framesFed - z <= Int64(t.maximumZeroRun) { start = Swift.min(start, z) }
        // The period being collected may turn out to repeat the one before.
        if periodsSeen >= 2 { start = Swift.min(start, framesFed - Int64(filled)) }
        return start
    }

    mutating func take(_ x: Float, at frame: Int64, input: Int, _ t: DropoutThresholds) -> DropoutDetector.Dropout? {
        var found: DropoutDetector.Dropout?
        let loud = abs(x) >= t.signalLevel
        if loud { lastLoud = frame }
        // A finished run of zeros waits for the signal to come back close to its end.
        if let p = pending {
            if loud {
                pending = nil
                found = .init(input: input, frame: p.start, frames: p.frames, kind: .zeros)
            } else if frame - p.end >= Int64(t.edgeWindow) {
                pending = nil
            }
        }
        if x == 0 {
            if zeroStart == nil {
                zeroStart = frame
                zeroRunAbrupt = lastLoud.map { frame - $0 <= Int64(t.edgeWindow) } ?? false
            }
        } else if let start = zeroStart {
            let length = Int(frame - start)
            zeroStart = nil
            if zeroRunAbrupt, length >= t.minimumZeroRun, length <= t.maximumZeroRun {
                if loud {
                    found = .init(input: input, frame: start, frames: length, kind: .zeros)
                } else {
                    pending = (start, length, frame)
                }
            }
        }
        if let repeated = takeForRepeat(x, at: frame, input: input, t), found == nil { found = repeated }
        return found
    }

    /// Collects the period; at its end, compares it with the one before.
    mutating func takeForRepeat(_ x: Float, at frame: Int64, input: Int, _ t: DropoutThresholds) -> DropoutDetector.Dropout? {
        current[filled] = x
        currentPeak = max(currentPeak, abs(x))
        filled += 1
        guard filled == t.period else { return nil }
        defer {
            swap(&beforePrevious, &previous)
            swap(&previous, &current)
            filled = 0
            currentPeak = 0
            periodsSeen += 1
        }
        // Two periods of history are needed: a repeat within the first three is not told.
        guard periodsSeen >= 2, current == previous, currentPeak >= t.signalLevel else { return nil }
        // The period before had to differ from its own predecessor: a signal periodic at the
        // period (or a second repeat of one lost packet, counted once) is not a new dropout.
        guard previous != beforePrevious else { return nil }
        return .init(input: input, frame: frame + 1 - Int64(t.period), frames: t.period, kind: .repeat)
    }
}
