import JackwaveLevelStream

/// Loudness over time, for a picture: momentary (400 ms) and short-term (3 s) loudness at
/// points in time, and the integrated loudness at the end, all in LUFS (−∞ for silence).
public struct LoudnessCurves: Sendable, Equatable {
    /// Seconds from the start of the recording, ascending: when each value was measured
    /// (the end of the audio it covers).
    public let times: [Double]
    public let momentary: [Double]
    public let shortTerm: [Double]
    /// The programme's integrated loudness at the last point, if known.
    public let integrated: Double?

    public init(times: [Double], momentary: [Double], shortTerm: [Double], integrated: Double?) {
        precondition(times.count == momentary.count && times.count == shortTerm.count)
        self.times = times
        self.momentary = momentary
        self.shortTerm = shortTerm
        self.integrated = integrated
    }

    /// The curves a level stream holds (`--loudness`): each row's values at its end; rows
    /// without loudness are left out. Nil if the stream has none.
    static func of(_ table: LevelStreamTable, rowEnd: (Int) -> Double) -> LoudnessCurves? {
        guard table.hasLoudness else { return nil }
        var times: [Double] = [], m: [Double] = [], s: [Double] = []
        var integrated: Double?
        for (i, row) in table.loudness.enumerated() {
            guard let row else { continue }
            times.append(rowEnd(i))
            m.append(Double(row.momentary))
            s.append(Double(row.shortTerm))
            integrated = Double(row.integrated)
        }
        guard !times.isEmpty else { return nil }
        return LoudnessCurves(times: times, momentary: m, shortTerm: s, integrated: integrated.flatMap { $0.isFinite ? $0 : nil })
    }
}
