import Glibc
import JackwaveDSP

/// A `LoudnessMeter` fed in 10-ms steps, so that momentary and short-term loudness are known
/// every 10 ms and their maxima are found whatever a burst's alignment (EBU Tech 3341 cases
/// 10 and 12 shift bursts against any fixed 100-ms grid).
///
/// Asking libebur128 for the 400-ms and 3-s loudness every 10 ms would sum 40 and 300 times
/// the audio; instead each 10-ms step's energy is read once (`ebur128_loudness_window`) and
/// momentary and short-term are the means of the last 40 and 300 steps' energies: the same
/// K-weighted mean square libebur128 takes, at a cost of one pass. The analyzer starts, as
/// libebur128 does, with silence before the first frame.
public final class LoudnessAnalyzer {
    /// libebur128 offsets 10·log10(energy) by −0.691 dB (BS.1770's K-filter gain at 1 kHz).
    static let offset = -0.691
    /// Steps per momentary window (400 ms) and per short-term window (3 s).
    static let momentarySteps = 40
    static let shortTermSteps = 300

    public let meter: LoudnessMeter
    /// Frames per step: `sampleRate / 100`, as libebur128 counts a 10-ms window (exact at
    /// 44.1, 48, 88.2, 96 kHz...).
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
    /// The true peak, per channel (`TruePeakFilter`, not libebur128's: see there why); nil
    /// when not asked for.
    private var truePeakFilter: TruePeakFilter?

    /// A meter with every mode jackwave reports (or only `modes`), and the true peak unless
    /// `truePeak` is false (a picture of the curves needs none), weighted as `weighting`
    /// says; nil if libebur128 refuses the channels or rate.
    public init?(sampleRate: Int, weighting: ChannelWeighting, modes: LoudnessModes = .all, truePeak: Bool = true) {
        guard sampleRate >= 100,
              let meter = LoudnessMeter(channels: weighting.weights.count, sampleRate: sampleRate, modes: modes) else { return nil }
        for (c, weight) in weighting.weights.enumerated() where !meter.setWeight(weight, channel: c) { return nil }
        self.meter = meter
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

    /// Reads the finished step's energy and updates momentary, short-term and their maxima.
    private func finishStep() {
        partial = 0
        steps += 1
        let stepLoudness = meter.loudness(lastMilliseconds: 10)
        energies[next] = Self.energy(stepLoudness)
        next = (next + 1) % Self.shortTermSteps
        momentary = Self.loudness(meanOfLast: Self.momentarySteps, in: energies, endingBefore: next)
        shortTerm = Self.loudness(meanOfLast: Self.shortTermSteps, in: energies, endingBefore: next)
        maxMomentary = max(maxMomentary, momentary)
        maxShortTerm = max(maxShortTerm, shortTerm)
    }

    /// The K-weighted mean square behind a loudness (0 for −∞).
    static func energy(_ loudness: Double) -> Double {
        loudness.isNaN ? 0 : pow(10, (loudness - offset) / 10)
    }

    /// The loudness of the mean of the `count` energies before `end` in the ring.
    static func loudness(meanOfLast count: Int, in ring: [Double], endingBefore end: Int) -> Double {
        var sum = 0.0
        var i = end
        for _ in 0..<count {
            i = i == 0 ? ring.count - 1 : i - 1
            sum += ring[i]
        }
        return sum > 0 ? 10 * log10(sum / Double(count)) + offset : -.infinity
    }
}
