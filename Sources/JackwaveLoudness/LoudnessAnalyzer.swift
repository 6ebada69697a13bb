import Glibc

/// A `LoudnessMeter` fed in 10-ms steps, so that momentary and short-term loudness are known
/// every 10 ms and their maxima found whatever a burst's alignment (EBU Tech 3341 cases 10
/// and 12 shift bursts against any fixed 100-ms grid).
///
/// libebur128 only K-weights and reads each step's energy (`ebur128_loudness_window`); the
/// windows and blocks are built here from those energies, and the blocks counted in two
/// fixed-size `LoudnessHistogram`s. Asked for integrated loudness and LRA, libebur128 sums
/// every block again and keeps them all in lists that grow forever
/// (docs/benchmarks-history.md, 4c). Starts, as libebur128 does, with silence before frame 0.
public final class LoudnessAnalyzer {
    /// Steps per momentary window (400 ms) and per short-term window (3 s).
    static let momentarySteps = 40
    static let shortTermSteps = 300
    /// Steps between gating blocks (100 ms: BS.1770's 75 % overlap) and between short-term
    /// blocks for the loudness range (1 s, libebur128's spacing).
    static let gatingBlockSteps = 10
    static let shortTermBlockSteps = 100

    public private(set) var meter: LoudnessMeter
    /// How the channels count (kept for a fresh meter, `restartFilters`).
    private let weighting: ChannelWeighting
    /// Frames per step: `sampleRate / 100`, as libebur128 counts a 10-ms window. At a rate that
    /// is not a multiple of 100 Hz the blocks fall a few frames short of libebur128's, which
    /// keeps integrated loudness and LRA within 0.05 LU of its own (tested).
    public let stepFrames: Int
    /// The last `shortTermSteps` steps' energies, oldest overwritten first.
    private var energies: [Double]
    private var next = 0
    /// Frames of the current, unfinished step already given to the meter.
    private var partial = 0
    /// Steps finished since the start.
    public private(set) var steps: Int64 = 0
    /// The latest momentary and short-term loudness, LUFS (−∞ until a step is done).
    public private(set) var momentary = -Double.infinity
    public private(set) var shortTerm = -Double.infinity
    /// Their maxima since the start, LUFS.
    public private(set) var maxMomentary = -Double.infinity
    public private(set) var maxShortTerm = -Double.infinity
    /// The gating blocks (integrated loudness) and short-term blocks (loudness range).
    public private(set) var gatingBlocks = LoudnessHistogram()
    public private(set) var shortTermBlocks = LoudnessHistogram()
    /// The true peak, per channel (`TruePeakFilter`, not libebur128's: see there why); nil
    /// when not asked for.
    private var truePeakFilter: TruePeakFilter?

    /// An analyzer weighted as `weighting` says, with the true peak unless `truePeak` is false
    /// (a picture of the curves needs none); nil if libebur128 refuses the channels or rate. It
    /// gets momentary mode only: the smallest buffer that still answers a 10-ms window.
    public init?(sampleRate: Int, weighting: ChannelWeighting, truePeak: Bool = true) {
        guard sampleRate >= 100,
              let meter = LoudnessMeter(channels: weighting.weights.count, sampleRate: sampleRate, modes: .momentary) else { return nil }
        for (c, weight) in weighting.weights.enumerated() where !meter.setWeight(weight, channel: c) { return nil }
        self.meter = meter
        self.weighting = weighting
        stepFrames = sampleRate / 100
        energies = Array(repeating: 0, count: Self.shortTermSteps)
        truePeakFilter = truePeak ? TruePeakFilter(channels: weighting.weights.count, sampleRate: sampleRate) : nil
    }

    /// Channel `index`'s largest true peak since the start, linear (never below its sample
    /// peak); NaN without true peak.
    public func truePeak(channel index: Int) -> Double {
        truePeakFilter.map { Double($0.peaks[index]) } ?? .nan
    }

    /// Channel `index`'s largest |sample| since the start, linear; NaN without true peak
    /// (the true-peak filter finds it in the same pass).
    public func samplePeak(channel index: Int) -> Double {
        truePeakFilter.map { Double($0.samplePeaks[index]) } ?? .nan
    }

    /// Each channel's largest true peak (linear) since the last call, and starts anew.
    public func takeRecentTruePeaks() -> [Double] {
        (truePeakFilter?.takeRecent() ?? []).map(Double.init)
    }

    /// Starts the filters (K-weighting, true peak) afresh, keeping everything measured: after a
    /// new connection the audio does not follow what came before, and a filter ringing across
    /// the join would measure a discontinuity no file holds. Windows and blocks go on.
    public func restartFilters() {
        if let fresh = LoudnessMeter(channels: meter.channels, sampleRate: meter.sampleRate, modes: .momentary),
           weighting.weights.enumerated().allSatisfy({ fresh.setWeight($0.element, channel: $0.offset) }) {
            meter = fresh
        }
        truePeakFilter?.forgetHistory()
    }

    /// Frames still to add before the current 10-ms step ends.
    public var framesToNextStep: Int { stepFrames - partial }

    /// Measures `count` interleaved frames, in pieces that end on step boundaries.
    public func add(_ frames: UnsafePointer<Float>, count: Int) {
        truePeakFilter?.process(frames, count: count)
        var done = 0
        while done < count {
            let piece = min(count - done, stepFrames - partial)
            meter.add(frames + done * meter.channels, count: piece)
            done += piece
            partial += piece
            if partial == stepFrames { finishStep() }
        }
    }

    /// The gated (integrated) loudness of everything measured, LUFS.
    public var integrated: Double { gatingBlocks.integrated }

    /// The loudness range of everything measured, LU.
    public var loudnessRange: Double { shortTermBlocks.loudnessRange }

    /// The integrated loudness of all `analyzers` as one programme (their gating blocks
    /// pooled), LUFS; −∞ if none.
    public static func integrated(of analyzers: [LoudnessAnalyzer]) -> Double {
        var pooled = LoudnessHistogram()
        for a in analyzers { pooled.merge(a.gatingBlocks) }
        return pooled.integrated
    }

    /// Reads the finished step's energy and updates momentary, short-term, their maxima and
    /// the blocks.
    private func finishStep() {
        partial = 0
        steps += 1
        energies[next] = LoudnessScale.energy(meter.loudness(lastMilliseconds: 10))
        next = (next + 1) % Self.shortTermSteps
        let momentaryEnergy = Self.mean(ofLast: Self.momentarySteps, in: energies, endingBefore: next)
        let shortTermEnergy = Self.mean(ofLast: Self.shortTermSteps, in: energies, endingBefore: next)
        momentary = LoudnessScale.loudness(momentaryEnergy)
        shortTerm = LoudnessScale.loudness(shortTermEnergy)
        maxMomentary = max(maxMomentary, momentary)
        maxShortTerm = max(maxShortTerm, shortTerm)
        if steps >= Self.momentarySteps && steps % Int64(Self.gatingBlockSteps) == 0 {
            gatingBlocks.add(energy: momentaryEnergy)
        }
        if steps >= Self.shortTermSteps && steps % Int64(Self.shortTermBlockSteps) == 0 {
            shortTermBlocks.add(energy: shortTermEnergy)
        }
    }

    /// The mean of the `count` energies before `end` in the ring.
    static func mean(ofLast count: Int, in ring: [Double], endingBefore end: Int) -> Double {
        var sum = 0.0
        var i = end
        for _ in 0..<count {
            i = i == 0 ? ring.count - 1 : i - 1
            sum += ring[i]
        }
        return sum / Double(count)
    }
}
