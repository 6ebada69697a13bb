import Glibc
import JackwaveLoudness
import JackwaveTestSupport
import Testing

/// `frames` of a sine of `cycles` per sample peaking at `amplitude`, starting at `phase`
/// radians, on `channels` interleaved channels (channel c scaled by 1/(c+1)).
private func sine(frames: Int, cycles: Double, amplitude: Double, phase: Double, channels: Int = 1) -> [Float] {
    sineWave(frames: frames, frequency: cycles, sampleRate: 1, amplitude: amplitude, channels: channels,
             phase: { _ in phase }, gain: { 1 / Double($0 + 1) })
}

private func decibels(_ x: Float) -> Double { 20 * log10(Double(x)) }

/// Each channel's true peak of `x` after its first 480 frames: an abrupt start (a step from
/// the silence before it) rightly overshoots, as the real waveform between samples would.
private func steadyPeaks(_ x: [Float], channels: Int, sampleRate: Int = 48000) -> [Float] {
    var f = TruePeakFilter(channels: channels, sampleRate: sampleRate)
    let frames = x.count / channels
    x.withUnsafeBufferPointer { p in
        f.process(p.baseAddress!, count: 480)
        _ = f.takeRecent()
        f.process(p.baseAddress! + 480 * channels, count: frames - 480)
    }
    return f.takeRecent()
}

@Suite("TruePeakFilter")
struct TruePeakFilterTests {
    @Test("a fs/4 sine whose samples fall 45° off its crests (3 dB under) reads its true crest within 0.1 dB")
    func findsTheCrestBetweenSamples() throws {
        let x = sine(frames: 4800, cycles: 0.25, amplitude: 0.5, phase: .pi / 4)
        var f = TruePeakFilter(channels: 1, sampleRate: 48000)
        x.withUnsafeBufferPointer { f.process($0.baseAddress!, count: x.count) }
        #expect(abs(decibels(x.map(abs).max()!) - decibels(0.5) + 3.01) < 0.01)   // the samples miss by 3 dB
        let peak = try #require(f.peaks.first, "peaks \(f.peaks)")
        #expect(abs(decibels(peak) - decibels(0.5)) < 0.1)
    }

    @Test("each channel is measured on its own")
    func channelsApart() throws {
        let peaks = steadyPeaks(sine(frames: 4800, cycles: 1.0 / 6, amplitude: 0.8, phase: .pi / 3, channels: 2), channels: 2)
        let left = try #require(peaks.element(at: 0), "peaks \(peaks)"), right = try #require(peaks.element(at: 1), "peaks \(peaks)")
        #expect(abs(decibels(left) - decibels(0.8)) < 0.1)
        #expect(abs(decibels(right) - decibels(0.4)) < 0.1)
    }

    @Test("seven channels (four to a vector: a full group, then three lanes and a padding lane) each read their own sine's crest")
    func channelsAcrossGroups() throws {
        let peaks = steadyPeaks(sine(frames: 4800, cycles: 1.0 / 6, amplitude: 0.9, phase: .pi / 3, channels: 7), channels: 7)
        #expect(peaks.count == 7)
        for c in 0..<7 {
            let peak = try #require(peaks.element(at: c), "peaks \(peaks)")
            #expect(abs(decibels(peak) - decibels(Float(0.9 / Double(c + 1)))) < 0.1, "channel \(c)")
        }
    }

    @Test("a step from silence overshoots, as the band-limited waveform through those samples does")
    func stepOvershoots() throws {
        var f = TruePeakFilter(channels: 1, sampleRate: 48000)
        let x = [Float](repeating: 0.25, count: 100)
        x.withUnsafeBufferPointer { f.process($0.baseAddress!, count: 100) }
        let peak = try #require(f.peaks.first, "peaks \(f.peaks)")
        #expect(peak > 0.26 && peak < 0.3)
    }

    @Test("a signal fed in pieces of any size reads the same as fed whole")
    func piecesEqualWhole() {
        let x = sine(frames: 10007, cycles: 0.123, amplitude: 0.7, phase: 1, channels: 3)
        var whole = TruePeakFilter(channels: 3, sampleRate: 44100)
        x.withUnsafeBufferPointer { whole.process($0.baseAddress!, count: 10007) }
        var pieces = TruePeakFilter(channels: 3, sampleRate: 44100)
        x.withUnsafeBufferPointer { p in
            var done = 0
            for size in [1, 5, 11, 12, 13, 480, 4096] + Array(repeating: 1000, count: 10) where done < 10007 {
                let n = min(size, 10007 - done)
                pieces.process(p.baseAddress! + 3 * done, count: n)
                done += n
            }
        }
        #expect(pieces.peaks == whole.peaks)
    }

    @Test("a constant level, once settled, reads as itself: every phase has unity gain")
    func unityGain() throws {
        let peaks = steadyPeaks([Float](repeating: 0.25, count: 1000), channels: 1)
        let peak = try #require(peaks.first, "peaks \(peaks)")
        #expect(abs(peak - 0.25) < 1e-6)
    }

    @Test("the recent peak starts anew after each take; the whole run's stays")
    func recentAndHold() throws {
        let loud = sine(frames: 4800, cycles: 0.01, amplitude: 0.9, phase: 0)
        let quiet = sine(frames: 4800, cycles: 0.01, amplitude: 0.1, phase: 0)
        var f = TruePeakFilter(channels: 1, sampleRate: 48000)
        loud.withUnsafeBufferPointer { f.process($0.baseAddress!, count: 4800) }
        quiet.withUnsafeBufferPointer { f.process($0.baseAddress!, count: 100) }   // the junction
        _ = f.takeRecent()
        quiet.withUnsafeBufferPointer { f.process($0.baseAddress! + 100, count: 4700) }
        let recent = f.takeRecent()
        let recentPeak = try #require(recent.first, "recent \(recent)"), peak = try #require(f.peaks.first, "peaks \(f.peaks)")
        #expect(abs(recentPeak - 0.1) < 0.002)
        #expect(abs(peak - 0.9) < 0.01)
    }

    @Test("the oversampling follows the rate: 4× at 48 kHz, 2× at 96 kHz, none at 192 kHz")
    func factors() {
        #expect(TruePeakFilter(channels: 1, sampleRate: 48000).factor == 4)
        #expect(TruePeakFilter(channels: 1, sampleRate: 96000).factor == 2)
        #expect(TruePeakFilter(channels: 1, sampleRate: 192_000).factor == 1)
    }
}
