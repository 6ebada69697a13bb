import Foundation
@testable import JackwaveLoudness
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// The wrapper over libebur128 and the channel weights, without the EBU cases.
@Suite("Loudness meter")
struct LoudnessMeterTests {
    @Test("a surround channel counts 1.5 dB more than a front one carrying the same sine")
    func surroundWeight() throws {
        var signal = TestSignal(channels: 1)
        signal.sine(dBFS: -20, seconds: 5)
        let front = try signal.summary(weighting: ChannelWeighting(weights: [.front], source: .file))
        let surround = try signal.summary(weighting: ChannelWeighting(weights: [.surround], source: .file))
        #expect(abs(surround.integrated - front.integrated - 10 * log10(1.41)) < 1e-6)
        #expect(abs(front.integrated - -23.01) < 0.05)   // one front channel: 3.01 dB below stereo
    }

    @Test("a channel the file places as LFE is left out of the loudness but not of the peaks")
    func lfeExcluded() throws {
        var signal = TestSignal(channels: 6)
        signal.sine(dBFS: -10, seconds: 3, only: [3])
        let weighting = ChannelWeighting(channels: 6, positions: [.front, .front, .front, .lowFrequencyEffects,
                                                                  .surround, .surround])
        let summary = try signal.summary(weighting: weighting)
        #expect(summary.integrated == -.infinity)
        #expect(summary.maxMomentary == -.infinity)
        let lfePeak = try #require(summary.samplePeaks.element(at: 3), "sample peaks \(summary.samplePeaks)")
        #expect(abs(lfePeak - -10) < 0.01)
        #expect(summary.weighting.summary == "6 channels as the file places them, 2 surround +1.5 dB, 1 LFE left out")
    }

    @Test("six channels the file does not place are weighted 1.0 each, and that is said to be assumed")
    func unplacedChannelsAssumed() {
        let weighting = ChannelWeighting(channels: 6, positions: nil)
        #expect(weighting.weights == Array(repeating: .front, count: 6))
        #expect(weighting.source == .assumed)
        #expect(weighting.summary.contains("assumed weighted 1.0 each"))
        #expect(ChannelWeighting(channels: 2, positions: nil).source == .monoOrStereo)
    }

    @Test("a six-channel WAVE_FORMAT_EXTENSIBLE file reads back as 5.1: the fourth channel LFE, the last two surround")
    func extensibleFilePositions() throws {
        let path = NSTemporaryDirectory() + "jackwave-loudness-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let format = try #require(SoundFormat.named("wavex")?.formatWord(depth: .float))
        let file = try SoundFile(writingTo: path, format: format, channels: 6, sampleRate: 48000)
        let zeros = [Float](repeating: 0, count: 600)
        _ = zeros.withUnsafeBufferPointer { file.write($0.baseAddress!, count: 100) }
        file.close()
        let back = try SoundFile(readingFrom: path)
        #expect(back.channelPositions == [.front, .front, .front, .lowFrequencyEffects, .surround, .surround])
    }

    @Test("a W64 file names no positions")
    func unplacedFile() throws {
        let path = NSTemporaryDirectory() + "jackwave-loudness-\(UUID().uuidString).w64"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let format = try #require(SoundFormat.named("w64")?.formatWord(depth: .float))
        let file = try SoundFile(writingTo: path, format: format, channels: 3, sampleRate: 48000)
        let zeros = [Float](repeating: 0, count: 300)
        _ = zeros.withUnsafeBufferPointer { file.write($0.baseAddress!, count: 100) }
        file.close()
        #expect(try SoundFile(readingFrom: path).channelPositions == nil)
    }

    @Test("momentary and short-term from 10-ms steps equal libebur128's own windows")
    func stepsMatchLibebur128() throws {
        var signal = TestSignal()
        var rng = SystemRandomNumberGenerator()
        signal.append(frames: 48000 * 5) { f, _ in
            Float.random(in: -0.3...0.3, using: &rng) * Float(0.2 + 0.8 * abs(sin(Double(f) / 9000)))
        }
        let analyzer = try signal.analyzed(chunk: 1000)
        let reference = try #require(LoudnessMeter(channels: 2, sampleRate: 48000, modes: .shortTerm))
        signal.samples.withUnsafeBufferPointer { _ = reference.add($0.baseAddress!, count: signal.frames) }
        #expect(analyzer.steps == 500)
        #expect(abs(analyzer.momentary - reference.momentary) < 1e-9)
        #expect(abs(analyzer.shortTerm - reference.shortTerm) < 1e-9)
    }

    @Test("the overall loudness of two programmes pools their gated blocks: 10 s at -30 and 10 s at -20 give -22.6 LUFS")
    func overallOfSeveral() throws {
        var quiet = TestSignal()
        quiet.sine(dBFS: -30, seconds: 10)
        var loud = TestSignal()
        loud.sine(dBFS: -20, seconds: 10)
        let a = try quiet.analyzed()
        let b = try loud.analyzed()
        let overall = LoudnessAnalyzer.integrated(of: [a, b])
        // Both halves pass the relative gate (10 LU below the pooled mean): their mean energy counts.
        #expect(abs(overall - 10 * log10((1e-3 + 1e-2) / 2)) < 0.05)
        #expect(abs(LoudnessAnalyzer.integrated(of: [a]) - -30) < 0.1)
    }

    @Test("silence measures as -inf LUFS and -inf peaks, not as a number")
    func silence() throws {
        var signal = TestSignal()
        signal.silence(seconds: 2)
        let summary = try signal.summary()
        #expect(summary.integrated == -.infinity)
        #expect(summary.truePeak == -.infinity)
        #expect(summary.samplePeak == -.infinity)
    }
}
