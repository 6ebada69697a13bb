import Foundation
import JackwaveAnalysis
import JackwaveTestSupport
import Testing

/// The dropout detector, fed signals whose dropouts are known by construction.
@Suite("Dropout detector")
struct DropoutDetectorTests {
    static let rate = 48000, period = 256
    let thresholds = DropoutThresholds.default(sampleRate: rate, period: period)

    /// A 997 Hz sine at `amplitude`, `frames` long (one channel).
    static func tone(_ frames: Int, amplitude: Float = 0.5, from start: Int = 0) -> [Float] {
        sineWave(frames: frames, frequency: 997, sampleRate: Double(rate), amplitude: Double(amplitude), start: start)
    }

    func detect(_ samples: [Float], channels: Int = 1) -> DropoutDetector {
        var d = DropoutDetector(channels: channels, thresholds: thresholds)
        d.feed(samples)
        return d
    }

    @Test("a period of zeros cut into a tone is one dropout, at its frame and of its length")
    func zerosInTone() {
        var x = Self.tone(48000)
        for i in 10_000..<10_256 { x[i] = 0 }
        let d = detect(x)
        #expect(d.dropouts == [.init(input: 0, frame: 10_000, frames: 256, kind: .zeros)])
        #expect(d.counts == [1])
    }

    @Test("a source that stops is not a dropout: zeros to the end, or for longer than half a second")
    func sourceStops() {
        var x = Self.tone(24000) + [Float](repeating: 0, count: 48000)
        #expect(detect(x).counts == [0])
        x += Self.tone(24000)
        #expect(detect(x).counts == [0], "a 1-s pause is silence, not a dropout")
        // Exactly at the bound it still counts; one frame past it, it does not.
        let atBound = Self.tone(4800) + [Float](repeating: 0, count: 24000) + Self.tone(4800, from: 28800)
        let pastBound = Self.tone(4800) + [Float](repeating: 0, count: 24001) + Self.tone(4800, from: 28801)
        #expect(detect(atBound).counts == [1])
        #expect(detect(pastBound).counts == [0])
    }

    @Test("a fade to silence and back (20 ms raised cosine) is not a dropout, even 100 ms short")
    func fadedPause() {
        let fade = 960
        var x = Self.tone(20_000)
        for i in 0..<fade {
            let g = Float(0.5 * (1 + cos(Double.pi * Double(i + 1) / Double(fade))))
            x[20_000 - fade + i] *= g
        }
        x += [Float](repeating: 0, count: 4800)
        var back = Self.tone(20_000, from: 24_800)
        for i in 0..<fade { back[i] *= Float(0.5 * (1 - cos(Double.pi * Double(i) / Double(fade)))) }
        x += back
        #expect(detect(x).counts == [0])
    }

    @Test("a period repeated exactly is one dropout; a signal periodic at the period is none")
    func repeats() {
        var x = Self.tone(48000)
        let p = Self.period
        for i in 0..<p { x[6 * p + i] = x[5 * p + i] }
        let d = detect(x)
        #expect(d.dropouts == [.init(input: 0, frame: Int64(6 * p), frames: p, kind: .repeat)])
        // 187.5 Hz at 48 kHz: exactly one cycle per 256-frame period, every period alike.
        let periodic = (0..<48000).map { 0.5 * Float(sin(2 * Double.pi * Double($0 % p) / Double(p))) }
        #expect(detect(periodic).counts == [0])
        // Two lost packets repeated: the repeat is one dropout.
        var twice = Self.tone(48000)
        for i in 0..<p { twice[6 * p + i] = twice[5 * p + i]; twice[7 * p + i] = twice[5 * p + i] }
        #expect(detect(twice).counts == [1])
    }

    @Test("a quiet 16-bit signal's exact zeros at its crossings are not dropouts")
    func quantizedLowLevel() {
        // A 20 Hz sine 65 LSB high, quantized to 16 bits: a few exact zeros at each crossing.
        let x = (0..<96000).map { Float((65 * sin(2 * Double.pi * 20 * Double($0) / Double(Self.rate))).rounded()) / 32768 }
        #expect(x.filter { $0 == 0 }.count > 100, "the signal does have exact zeros")
        #expect(detect(x).counts == [0])
    }

    @Test("each input is counted on its own, in interleaved frames")
    func perInput() {
        var a = Self.tone(24000), b = Self.tone(24000, amplitude: 0.25)
        for i in 3000..<3100 { b[i] = 0 }
        for i in 9000..<9512 { b[i] = 0 }
        for i in 12_000..<12_064 { a[i] = 0 }
        let interleaved = zip(a, b).flatMap { [$0, $1] }
        let d = detect(interleaved, channels: 2)
        #expect(d.counts == [1, 2])
        #expect(d.dropouts.map(\.frame) == [3000, 9000, 12_000])
        #expect(d.dropouts.map(\.input) == [1, 1, 0])
    }

    @Test("fed in pieces of any size, it finds the same dropouts as fed whole")
    func pieces() {
        var x = Self.tone(30000)
        for i in 1000..<1256 { x[i] = 0 }
        for i in 0..<256 { x[20 * 256 + i] = x[19 * 256 + i] }
        let whole = detect(x)
        var d = DropoutDetector(channels: 1, thresholds: thresholds)
        var at = 0
        for size in [1, 7, 255, 256, 1000, 3] where at < x.count {
            let n = min(size, x.count - at)
            x[at..<(at + n)].withUnsafeBufferPointer { d.feed($0, frames: n) }
            at += n
        }
        x[at...].withUnsafeBufferPointer { d.feed($0, frames: $0.count) }
        #expect(whole.counts == [2])
        #expect(d.dropouts == whole.dropouts)
        #expect(d.framesFed == 30000)
    }

    @Test("the list keeps the first dropouts up to its limit; the counts go on")
    func boundedList() {
        var x: [Float] = []
        for k in 0..<20 { x += Self.tone(1000, from: k * 1100) + [Float](repeating: 0, count: 100) }
        x += Self.tone(1000)
        var d = DropoutDetector(channels: 1, thresholds: thresholds, listLimit: 5)
        d.feed(x)
        #expect(d.counts == [20])
        #expect(d.dropouts.count == 5)
        #expect(d.dropouts.first?.frame == 1000)
    }

    @Test("every dropout that begins before the settled frame has been returned; a run of zeros holds it back until decided")
    func settled() {
        var d = DropoutDetector(channels: 1, thresholds: thresholds)
        var x = Self.tone(10_000)
        for i in 5000..<5256 { x[i] = 0 }
        // Fed up to the middle of the run of zeros: it may still become a dropout.
        let firstPart = Array(x[0..<5100])
        #expect(d.feed(firstPart).isEmpty)
        // Held at the period being collected (4864 = 19 × 256, before the run), which could
        // still turn out to repeat the one before.
        #expect(d.settledFrame == 4864)
        // The signal is back: the dropout is returned, and the settled frame moves past it.
        let found = d.feed(Array(x[5100...]))
        #expect(found == [.init(input: 0, frame: 5000, frames: 256, kind: .zeros)])
        #expect(d.settledFrame > 5256 && d.settledFrame <= 10_000, "\(d.settledFrame)")
        #expect(d.settledFrame >= 10_000 - Int64(Self.period))
    }

    @Test("frames skipped (jackwave's own drops, written as silence) are no dropout, and no history spans them")
    func skipped() {
        var d = DropoutDetector(channels: 1, thresholds: thresholds)
        d.feed(Self.tone(4096))
        d.skip(frames: 512)
        let after = d.feed(Self.tone(4096, from: 4608))
        #expect(after.isEmpty && d.counts == [0])
        #expect(d.framesFed == 4096 + 512 + 4096)
        // A dropout after the skip is placed on the stream's frames, skip included.
        var y = Self.tone(4096, from: 8704)
        for i in 1000..<1256 { y[i] = 0 }
        #expect(d.feed(y).map(\.frame) == [8704 + 1000])
    }

    @Test("the vector path (whole stretches) finds exactly what the sample-by-sample path does, on a signal full of edge cases")
    func vectorPathAgrees() {
        // Two inputs: a tone cut by runs of zeros (some -0.0) of 1 to 600 frames, periods
        // repeated, quiet stretches, silence, a NaN; seeded, so the signal is the same each run.
        var rng = SplitMix64(seed: 23)
        let frames = 96_000
        var x = (0..<frames).flatMap { f in [Float(0.5 * sin(Double(f) * 0.13)), Float(0.001 * sin(Double(f) * 0.07))] }
        for _ in 0..<120 {
            let c = Int(rng.next() % 2), at = Int(rng.next() % UInt64(frames - 700)), n = 1 + Int(rng.next() % 600)
            for f in at..<(at + n) { x[2 * f + c] = rng.next() % 3 == 0 ? -0.0 : 0 }
        }
        for _ in 0..<30 {
            let k = 3 + Int(rng.next() % UInt64(frames / 256 - 4))
            for f in 0..<256 { x[2 * (k * 256 + f)] = x[2 * ((k - 1) * 256 + f)] }
        }
        for f in 40_000..<41_000 { x[2 * f] = 0.0005 }
        x[2 * 50_000] = .nan
        var whole = DropoutDetector(channels: 2, thresholds: thresholds)
        let wholeFound = whole.feed(x)
        var one = DropoutDetector(channels: 2, thresholds: thresholds)
        var oneFound: [DropoutDetector.Dropout] = []
        x.withUnsafeBufferPointer { p in
            for f in 0..<frames { oneFound += one.feed(UnsafeBufferPointer(rebasing: p[(2 * f)..<(2 * f + 2)]), frames: 1) }
        }
        #expect(wholeFound.count > 50, "the signal has dropouts to find: \(wholeFound.count)")
        #expect(wholeFound.contains { $0.kind == .repeat } && wholeFound.contains { $0.kind == .zeros })
        #expect(wholeFound == oneFound.sorted { ($0.frame, $0.input) < ($1.frame, $1.input) })
        #expect(whole.counts == one.counts && whole.settledFrame == one.settledFrame)
    }
}

/// A small seeded generator (SplitMix64), for test signals that are the same every run.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
