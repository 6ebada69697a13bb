import Foundation
@testable import JackwaveLoudness
import Testing

/// The integrated loudness and loudness range built from the analyzer's own blocks in fixed
/// histograms, against libebur128's lists, and their memory over long runs.
@Suite("Loudness histogram")
struct LoudnessHistogramTests {
    /// Stereo noise whose level jumps every 0.7 s to somewhere between −50 and −8 dBFS
    /// (xorshift64*, the same every run), made and measured a chunk at a time.
    struct Programme {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var level = 0.0
        var left = 0
        mutating func next() -> Double {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return Double((state &* 2685821657736338717) >> 11) / Double(1 << 53) * 2 - 1
        }
        mutating func fill(_ buffer: inout [Float]) {
            for i in stride(from: 0, to: buffer.count, by: 2) {
                if left == 0 { level = pow(10, (-29 + 21 * next()) / 20) * 1.7; left = 33600 }
                left -= 1
                buffer[i] = Float(level * next())
                buffer[i + 1] = Float(level * next())
            }
        }
    }

    @Test("on a 5-minute programme of jumping levels the integrated loudness and range equal libebur128's own within 0.01 and 0.02 LU",
          arguments: [48000, 44100])
    func matchesLibebur128(rate: Int) throws {
        let (ours, theirs) = try Self.measure(rate: rate)
        #expect(abs(ours.integrated - theirs.integrated) < 0.01, "\(ours.integrated) vs \(theirs.integrated)")
        #expect(abs(ours.loudnessRange - theirs.loudnessRange) < 0.02, "\(ours.loudnessRange) vs \(theirs.loudnessRange)")
        #expect(ours.loudnessRange > 10)   // the material does spread: the check means something
    }

    @Test("at 22.05 kHz, where a 10-ms step is 220 frames and libebur128's 100 ms 2205, they stay within 0.05 LU")
    func offGridRate() throws {
        let (ours, theirs) = try Self.measure(rate: 22050)
        #expect(abs(ours.integrated - theirs.integrated) < 0.05, "\(ours.integrated) vs \(theirs.integrated)")
        #expect(abs(ours.loudnessRange - theirs.loudnessRange) < 0.05, "\(ours.loudnessRange) vs \(theirs.loudnessRange)")
    }

    /// The analyzer and libebur128 (integrated and LRA modes) fed the same 5-minute programme.
    static func measure(rate: Int) throws -> (LoudnessAnalyzer, LoudnessMeter) {
        let weighting = ChannelWeighting(channels: 2, positions: nil)
        let analyzer = try #require(LoudnessAnalyzer(sampleRate: rate, weighting: weighting, truePeak: false))
        let reference = try #require(LoudnessMeter(channels: 2, sampleRate: rate, modes: [.integrated, .loudnessRange]))
        var programme = Programme()
        var chunk = [Float](repeating: 0, count: 2 * 4000)
        for _ in 0..<(300 * rate / 4000) {
            programme.fill(&chunk)
            chunk.withUnsafeBufferPointer {
                analyzer.add($0.baseAddress!, count: 4000)
                reference.add($0.baseAddress!, count: 4000)
            }
        }
        return (analyzer, reference)
    }

    @Test("100 s give 997 gating blocks (every 100 ms from 400 ms) and 98 short-term blocks (every second from 3 s), in the same bins as 10 s")
    func blocksCountedMemoryFixed() throws {
        let weighting = ChannelWeighting(channels: 2, positions: nil)
        let analyzer = try #require(LoudnessAnalyzer(sampleRate: 48000, weighting: weighting, truePeak: false))
        var programme = Programme()
        var chunk = [Float](repeating: 0, count: 2 * 4800)
        var capacities: [Int] = []
        for second in 1...100 {
            for _ in 0..<10 {
                programme.fill(&chunk)
                chunk.withUnsafeBufferPointer { analyzer.add($0.baseAddress!, count: 4800) }
            }
            if second == 10 || second == 100 {
                capacities.append(analyzer.gatingBlocks.capacity + analyzer.shortTermBlocks.capacity)
            }
        }
        #expect(analyzer.gatingBlocks.blocks == 997)
        #expect(analyzer.shortTermBlocks.blocks == 98)
        #expect(capacities == [2 * LoudnessHistogram.binCount, 2 * LoudnessHistogram.binCount])
    }

    @Test("ten million blocks (11.6 days of gating blocks) are held in the same bins, and two levels 6 LU apart still average exactly")
    func weeksOfBlocks() {
        var histogram = LoudnessHistogram()
        let quiet = LoudnessScale.energy(-29), loud = LoudnessScale.energy(-23)
        for i in 0..<10_000_000 { histogram.add(energy: i % 2 == 0 ? quiet : loud) }
        #expect(histogram.capacity == LoudnessHistogram.binCount)
        #expect(histogram.blocks == 10_000_000)
        #expect(abs(histogram.integrated - LoudnessScale.loudness((quiet + loud) / 2)) < 1e-6)
        #expect(abs(histogram.loudnessRange - 6) < 1e-6)
    }

    @Test("blocks below the -70 LUFS absolute gate are not counted, and a histogram of none reads -inf and a range of 0")
    func absoluteGate() {
        var histogram = LoudnessHistogram()
        histogram.add(energy: LoudnessScale.energy(-70.5))
        histogram.add(energy: 0)
        #expect(histogram.blocks == 0)
        #expect(histogram.integrated == -.infinity)
        #expect(histogram.loudnessRange == 0)
    }

    @Test("a block 12 LU under the rest is gated out of the integrated loudness; one 8 LU under counts")
    func relativeGate() {
        var histogram = LoudnessHistogram()
        for _ in 0..<100 { histogram.add(energy: LoudnessScale.energy(-20)) }
        histogram.add(energy: LoudnessScale.energy(-32))
        #expect(abs(histogram.integrated - -20) < 1e-9)
        histogram.add(energy: LoudnessScale.energy(-28))
        let expected = LoudnessScale.loudness((100 * LoudnessScale.energy(-20) + LoudnessScale.energy(-28)) / 101)
        #expect(abs(histogram.integrated - expected) < 1e-9)
    }
}
