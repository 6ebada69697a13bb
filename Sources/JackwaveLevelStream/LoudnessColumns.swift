/// The loudness columns of a level-stream row (`--loudness`): EBU R 128's live measures at
/// the row's end, as the loudness analysis reported them (10 times a second).
///
/// `Float`, like the peaks: printed with the shortest round-trip text, a value read back
/// holds the identical bits, and a `Float`'s 24 bits are far finer than 0.01 LU.
public struct LoudnessColumns: Equatable, Sendable {
    /// Momentary (400 ms), short-term (3 s) and integrated (gated) loudness, LUFS; −∞ for
    /// silence or before anything passed the gate.
    public var momentary: Float
    public var shortTerm: Float
    public var integrated: Float
    /// Loudness range (EBU Tech 3342), LU.
    public var range: Float
    /// Each channel's largest true peak since the start, dBTP (−∞ for silence).
    public var truePeaks: [Float]

    public init(momentary: Float, shortTerm: Float, integrated: Float, range: Float, truePeaks: [Float]) {
        self.momentary = momentary
        self.shortTerm = shortTerm
        self.integrated = integrated
        self.range = range
        self.truePeaks = truePeaks
    }
}
