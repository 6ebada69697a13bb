import Foundation
@testable import JackwaveLoudness
import Testing

/// EBU Tech 3341 ("EBU Mode" metering, v3 2016), Table 1's minimum-requirement signals,
/// generated here rather than read from the EBU's files, and checked at its tolerances:
/// ±0.1 LU for momentary, short-term and integrated loudness, +0.2/−0.4 dB for true peak.
///
/// Levels are each channel's sine peak in dBFS; a stereo 1 kHz sine at X dBFS is X LUFS.
/// All at 48 kHz.
///
/// | case | signal | expected |
/// |---|---|---|
/// | 1 | stereo 1 kHz, −23 dBFS, 20 s | M, S, I = −23.0 LUFS |
/// | 2 | stereo 1 kHz, −33 dBFS, 20 s | M, S, I = −33.0 LUFS |
/// | 3 | −36 dBFS 10 s, −23 dBFS 60 s, −36 dBFS 10 s | I = −23.0 (relative gate) |
/// | 4 | −72 10 s, −36 10 s, −23 60 s, −36 10 s, −72 10 s | I = −23.0 (both gates) |
/// | 5 | −26 dBFS 20 s, −20 dBFS 20.1 s, −26 dBFS 20 s | I = −23.0 |
/// | 6 | 5 channels L, R −28, C −24, Ls, Rs −30 dBFS, 20 s | I = −23.0 (surround +1.5 dB) |
/// | 7, 8 | authentic programme (EBU's own recordings) | not synthetic: not here |
/// | 9 | 1.34 s at −20 dBFS, 1.66 s at −30 dBFS, 5 times | S = −23.0 throughout, after 3 s |
/// | 10 | 3-s bursts at −23 dBFS, 20 of them | max S = −23.0 for each |
/// | 11 | 3-s bursts at −38, −37 … −19 dBFS | max S of each = its level |
/// | 12 | 400-ms bursts at −23 dBFS, 20 of them | max M = −23.0 for each |
/// | 15 | stereo sine at fs/4 (12 kHz), −6 dBFS, phase 0° | true peak −6.0 dBTP |
/// | 16 | fs/4, −6 dBFS, phase 45° (samples at −9 dBFS) | −6.0 dBTP |
/// | 17 | fs/6 (8 kHz), −6 dBFS, phase 60° | −6.0 dBTP |
/// | 18 | fs/8 (6 kHz), −6 dBFS, phase 67.5° | −6.0 dBTP |
/// | 19 | fs/4, +3 dBFS peak, phase 45° (samples at 0 dBFS) | +3.0 dBTP |
///
/// Cases 10–12 exist to catch a meter that reads M or S on too coarse a grid: the EBU's
/// files start their bursts at offsets against any fixed grid. Those offsets are not
/// transcribed here; each burst here is preceded by a silence 17 ms (7 ms for case 12)
/// longer than the last one's, which sweeps the starts across the 10- and 100-ms grids.
/// Cases 15–19 last 5 s each (the duration does not change a true peak) and fade in and out
/// over 100 ms: a sine that jumps from silence to a non-zero sample is a step, whose
/// reconstruction overshoots by itself (unfaded, libebur128 read the 6-kHz case 0.65 dB high
/// and ffmpeg the 12-kHz case 0.5 dB high), and that is not what these cases test.
@Suite("EBU Tech 3341")
struct EBUTech3341Tests {
    static let tolerance = 0.1

    /// Stereo 1 kHz steps of (dBFS, seconds).
    static func steps(_ steps: [(Double, Double)]) -> TestSignal {
        var s = TestSignal()
        for (level, seconds) in steps { s.sine(dBFS: level, seconds: seconds) }
        return s
    }

    @Test("cases 1 and 2: a steady stereo sine reads its level as M, S, I and their maxima", arguments: [-23.0, -33.0])
    func steady(level: Double) throws {
        let analyzer = try Self.steps([(level, 20)]).analyzed()
        for value in [analyzer.momentary, analyzer.shortTerm, analyzer.integrated,
                      analyzer.maxMomentary, analyzer.maxShortTerm] {
            #expect(abs(value - level) <= Self.tolerance, "\(value)")
        }
    }

    @Test("cases 3, 4 and 5: the gates keep the quiet parts out and integrated loudness is -23.0",
          arguments: [
            [(-36.0, 10.0), (-23, 60), (-36, 10)],
            [(-72.0, 10.0), (-36, 10), (-23, 60), (-36, 10), (-72, 10)],
            [(-26.0, 20.0), (-20, 20.1), (-26, 20)],
          ])
    func gated(steps: [(Double, Double)]) throws {
        let integrated = try Self.steps(steps).analyzed().integrated
        #expect(abs(integrated - -23) <= Self.tolerance, "\(integrated)")
    }

    @Test("case 6: five channels placed L R C Ls Rs read -23.0, the surround pair counting +1.5 dB")
    func surround() throws {
        var s = TestSignal(channels: 5)
        let levels = [-28.0, -28, -24, -30, -30]
        let n = 20 * 48000
        let amplitudes = levels.map { pow(10, $0 / 20) }
        s.append(frames: n) { f, c in Float(amplitudes[c] * sin(2 * .pi * 1000 * Double(f) / 48000)) }
        let weighting = ChannelWeighting(channels: 5, positions: [.front, .front, .front, .surround, .surround])
        let integrated = try s.analyzed(weighting: weighting).integrated
        #expect(abs(integrated - -23) <= Self.tolerance, "\(integrated)")
    }

    @Test("case 9: 1.34 s at -20 and 1.66 s at -30 dBFS alternating hold short-term at -23.0 after 3 s")
    func shortTermSteady() throws {
        let series = try Self.steps(Array(repeating: [(-20.0, 1.34), (-30, 1.66)], count: 5).flatMap { $0 }).series()
        let after = series.filter { $0.time >= 3 }.map(\.shortTerm)
        #expect(after.count > 1000)
        let lowest = try #require(after.min(), "no short-term reading after 3 s")
        let highest = try #require(after.max(), "no short-term reading after 3 s")
        #expect(abs(lowest - -23) <= Self.tolerance && abs(highest - -23) <= Self.tolerance,
                "\(lowest) ... \(highest)")
    }

    /// The largest value `reading` gives in each burst's span (from its start to the next's),
    /// for bursts of `seconds` at `levels`, each after a silence of `gap + k × shift` seconds.
    static func burstMaxima(levels: [Double], seconds: Double, gap: Double, shift: Double,
                            reading: (Double, Double) -> Double) throws -> [Double] {
        var s = TestSignal()
        var starts: [Double] = []
        for (k, level) in levels.enumerated() {
            s.silence(seconds: gap + Double(k) * shift)
            starts.append(Double(s.frames) / 48000)
            s.sine(dBFS: level, seconds: seconds)
        }
        s.silence(seconds: gap)
        let series = try s.series()
        return try starts.indices.map { k in
            let end = k + 1 < starts.count ? starts[k + 1] : .infinity
            return try #require(series.filter { $0.time > starts[k] && $0.time <= end }.map { reading($0.momentary, $0.shortTerm) }.max(),
                                "no reading in the span of burst \(k + 1), from \(starts[k]) s")
        }
    }

    @Test("case 10: each of 20 three-second bursts at -23 dBFS, wherever it starts, has a max short-term of -23.0")
    func shortTermBursts() throws {
        let maxima = try Self.burstMaxima(levels: Array(repeating: -23, count: 20), seconds: 3, gap: 1, shift: 0.017) { $1 }
        for m in maxima { #expect(abs(m - -23) <= Self.tolerance, "\(maxima)") }
    }

    @Test("case 11: three-second bursts at -38 to -19 dBFS each have their own level as max short-term")
    func shortTermLevels() throws {
        let levels = (0..<20).map { -38.0 + Double($0) }
        let maxima = try Self.burstMaxima(levels: levels, seconds: 3, gap: 3, shift: 0.017) { $1 }
        for (m, level) in zip(maxima, levels) { #expect(abs(m - level) <= Self.tolerance, "\(level): \(m)") }
    }

    @Test("case 12: each of 20 bursts of 400 ms at -23 dBFS, wherever it starts, has a max momentary of -23.0")
    func momentaryBursts() throws {
        let maxima = try Self.burstMaxima(levels: Array(repeating: -23, count: 20), seconds: 0.4, gap: 1, shift: 0.007) { m, _ in m }
        for m in maxima { #expect(abs(m - -23) <= Self.tolerance, "\(maxima)") }
    }

    /// (case, frequency as a fraction of 48 kHz, peak dBFS, phase in degrees, expected dBTP)
    static let truePeakCases: [(Int, Double, Double, Double, Double)] = [
        (15, 1.0 / 4, -6, 0, -6), (16, 1.0 / 4, -6, 45, -6), (17, 1.0 / 6, -6, 60, -6),
        (18, 1.0 / 8, -6, 67.5, -6), (19, 1.0 / 4, 3, 45, 3),
    ]

    @Test("cases 15-19: true peak of sines whose samples miss their crests is within +0.2/-0.4 dB",
          arguments: truePeakCases)
    func truePeak(_ c: (Int, Double, Double, Double, Double)) throws {
        var s = TestSignal()
        s.sine(48000 * c.1, dBFS: c.2, seconds: 5, phaseDegrees: c.3, fade: 0.1)
        let summary = try s.summary()
        for tp in summary.truePeaks {
            #expect(tp - c.4 <= 0.2 && tp - c.4 >= -0.4, "case \(c.0): \(tp) dBTP, sample peak \(summary.samplePeak)")
        }
    }
}
