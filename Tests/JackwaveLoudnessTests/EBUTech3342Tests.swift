@testable import JackwaveLoudness
import Testing

/// EBU Tech 3342 (Loudness Range, v3 2016), Table 1's synthetic signals: stereo 1 kHz sines
/// in steps of 20 s at 48 kHz, each channel peaking at the level given in dBFS (X dBFS is
/// X LUFS). LRA within ±1 LU. Cases 5 and 6 are authentic programme: not here.
///
/// | case | steps | LRA |
/// |---|---|---|
/// | 1 | −20, −30 dBFS | 10 LU |
/// | 2 | −20, −15 dBFS | 5 LU |
/// | 3 | −40, −20 dBFS | 20 LU |
/// | 4 | −50, −35, −20, −35, −50 dBFS | 15 LU |
@Suite("EBU Tech 3342")
struct EBUTech3342Tests {
    static let cases: [(Int, [Double], Double)] = [
        (1, [-20, -30], 10), (2, [-20, -15], 5), (3, [-40, -20], 20), (4, [-50, -35, -20, -35, -50], 15),
    ]

    @Test("cases 1-4: the loudness range of 20-s steps is within 1 LU of the EBU's value", arguments: cases)
    func loudnessRange(_ c: (Int, [Double], Double)) throws {
        var s = TestSignal()
        for level in c.1 { s.sine(dBFS: level, seconds: 20) }
        let lra = try s.analyzed().loudnessRange
        #expect(abs(lra - c.2) <= 1, "case \(c.0): \(lra) LU")
    }
}
