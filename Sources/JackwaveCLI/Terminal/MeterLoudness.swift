import JackwaveAnalysis
import JackwaveHost

/// What the meter shows of the live loudness (`--loudness`): the latest reading's M, S, I
/// and LRA, each channel's current true peak and its hold (the largest since the start, as
/// EBU R 128 judges a programme's true peak), and the target.
struct MeterLoudness: Equatable {
    /// The target loudness, LUFS (`--target`).
    let target: Double
    /// Momentary, short-term and integrated loudness, LUFS; LRA, LU. −∞ / 0 until the first
    /// reading.
    var momentary = -Double.infinity
    var shortTerm = -Double.infinity
    var integrated = -Double.infinity
    var range = 0.0
    /// Per channel, dBTP: the true peak of the last 100 ms, and the largest since the start.
    var truePeaks: [Double]
    var truePeakHolds: [Double]

    init(target: Double, channels: Int) {
        self.target = target
        truePeaks = Array(repeating: -.infinity, count: channels)
        truePeakHolds = Array(repeating: -.infinity, count: channels)
    }

    /// Takes the analysis's latest reading.
    mutating func take(_ reading: LoudnessReading) {
        let c = reading.columns
        momentary = Double(c.momentary)
        shortTerm = Double(c.shortTerm)
        integrated = Double(c.integrated)
        range = c.range.isNaN ? 0 : Double(c.range)
        for k in truePeaks.indices where k < c.truePeaks.count {
            truePeaks[k] = Double(reading.recentTruePeaks[k])
            truePeakHolds[k] = Double(c.truePeaks[k])
        }
    }
}
