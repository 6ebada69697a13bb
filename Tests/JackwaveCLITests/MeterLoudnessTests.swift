import JackwaveAnalysis
@testable import JackwaveCLI
import JackwaveDSP
import JackwaveHost
import JackwaveLevelStream
import JackwaveTestSupport
import Testing

/// A reading of two channels: M, S, I, LRA, true-peak holds and the last 100 ms's.
private func reading(m: Float = -21.3, s: Float = -22.8, i: Float = -23, lra: Float = 4.1,
                     holds: [Float] = [-1.5, -0.4], current: [Float] = [-3.2, -4]) -> LoudnessReading {
    LoudnessReading(frame: 48000, columns: LoudnessColumns(momentary: m, shortTerm: s, integrated: i, range: lra,
                                                           truePeaks: holds),
                    recentTruePeaks: current)
}

/// The meter's loudness lines (`--loudness`) as text, from the state alone.
@Suite("Meter loudness lines")
struct MeterLoudnessTests {
    func lines(_ r: LoudnessReading?, target: Double = -23, width: Int = 100, height: Int = 40) -> [StyledLine] {
        var state = MeterState(channels: 2, sampleRate: 48000, loudnessTarget: target)
        state.feed(startFrame: 0, frameCount: 256, peaks: [Float(0.5), 0.5])
        if let r { state.loudness?.take(r) }
        return MeterRenderer.styledLines(state: state, names: ["in_1", "in_2"], connections: [[], []], status: nil,
                                         width: width, height: height)
    }

    @Test("the figures line shows M, S, I in LUFS, LRA in LU, the target and how far I is from it")
    func figuresLine() throws {
        let text = try #require(lines(reading()).element(at: 2), "no figures line").rendered(color: false)
        #expect(text == "M  -21.3  S  -22.8  I  -23.0 LUFS  LRA    4.1 LU  target -23 (I 0.0)")
        let loud = try #require(lines(reading(i: -14.04), target: -16).element(at: 2), "no figures line").rendered(color: false)
        #expect(loud.hasSuffix("target -16 (I +2.0)"))
    }

    @Test("before any reading the figures are -inf and there is no distance to the target")
    func beforeFirstReading() throws {
        let text = try #require(lines(nil).element(at: 2), "no figures line").rendered(color: false)
        #expect(text == "M   -inf  S   -inf  I   -inf LUFS  LRA    0.0 LU  target -23")
    }

    @Test("the momentary bar fills up to the target's mark at the target, three quarters along")
    func barAtTarget() {
        let bar = Array(MeterRenderer.loudnessBar(-23, target: -23, width: 48).rendered(color: false))
        #expect(bar.firstIndex(of: "│") == 35)                 // 36 of 48 cells: (36 LU below) / (48 LU)
        #expect(bar.prefix(35).allSatisfy { $0 == "█" })   // a bar too short fails the mark's check above
        #expect(bar.dropFirst(36).allSatisfy { $0 == "·" })
        let quiet = Array(MeterRenderer.loudnessBar(-47, target: -23, width: 48).rendered(color: false))
        #expect(quiet.filter { $0 == "█" }.count == 12)       // 12 LU above the bottom (−59 LUFS)
    }

    @Test("the true-peak line shows each channel's current peak and its hold; a hold above −1 dBTP is red")
    func truePeakLine() throws {
        let line = try #require(lines(reading()).element(at: 4), "no true-peak line")
        #expect(line.rendered(color: false) == "dBTP  in_1   -3.2 (max   -1.5)  in_2   -4.0 (max   -0.4)")
        #expect(line.runs.contains { $0.text == "  -0.4" && $0.color == .red })
        #expect(!line.runs.contains { $0.text == "  -1.5" && $0.color == .red })
    }

    @Test("a short terminal drops the waveform strip before the loudness lines")
    func shortTerminal() {
        // 2 channels + 3 loudness lines + 4 strip rows + the status line, and the cursor's row.
        #expect(lines(reading(), height: 11).count == 9)
        #expect(lines(reading(), height: 10).count == 5)
        let short = lines(reading(), height: 7)
        #expect(short.count == 5)
        #expect(short.element(at: 4)?.rendered(color: false).hasPrefix("dBTP") == true)
    }

    @Test("without --loudness the meter has no loudness lines")
    func noLoudness() {
        var state = MeterState(channels: 2, sampleRate: 48000)
        state.feed(startFrame: 0, frameCount: 256, peaks: [Float(0.5), 0.5])
        let text = MeterRenderer.lines(state: state, names: ["in_1", "in_2"], connections: [[], []], status: nil,
                                       width: 100, height: 40, color: false)
        #expect(!text.contains { $0.hasPrefix("M ") || $0.hasPrefix("dBTP") })
    }
}
