import JackwaveTestSupport
import Testing

/// The one allowance the sample-exact checks make on PipeWire when nobody said a cycle was
/// skipped: whole cycles of silence in place of the source's, and nothing else.
@Suite("PipeWire's allowance in the pattern checks")
struct ServerBreaksTests {
    static let quantum = 256

    /// Two channels of the test pattern from source frame `k0`, `count` frames.
    static func pattern(from k0: Int, count: Int) -> [Float] {
        (0..<count).flatMap { f in [TestPattern.value(frame: k0 + f, channel: 0), TestPattern.value(frame: k0 + f, channel: 1)] }
    }

    /// `frames` frames of silence on both channels.
    static func silence(_ frames: Int) -> [Float] { [Float](repeating: 0, count: 2 * frames) }

    static func silentCycles(_ samples: [Float]) -> Int? {
        let rec = Recording(channels: 2, samples: samples)
        return TestPattern.silentCycles(in: rec, from: 0, upTo: rec.frames, quantum: quantum)
    }

    @Test("an unbroken pattern has no silent cycles")
    func unbroken() {
        #expect(Self.silentCycles(Self.pattern(from: 500, count: 4096)) == 0)
    }

    @Test("a cycle of silence put in, or in place of a cycle, is counted, wherever the pattern goes on")
    func silenceCounted() {
        let q = Self.quantum
        let inserted = Self.pattern(from: 500, count: 3 * q) + Self.silence(q) + Self.pattern(from: 500 + 3 * q, count: 4 * q)
        #expect(Self.silentCycles(inserted) == 1)
        let replaced = Self.pattern(from: 500, count: 3 * q) + Self.silence(2 * q) + Self.pattern(from: 500 + 5 * q, count: 4 * q)
        #expect(Self.silentCycles(replaced) == 2)
    }

    @Test("silence shorter than a cycle, a pattern that goes on part of a cycle later, or a wrong sample is not allowed")
    func otherBreaksRefused() {
        let q = Self.quantum
        #expect(Self.silentCycles(Self.pattern(from: 500, count: 3 * q) + Self.silence(q - 1) + Self.pattern(from: 500 + 3 * q, count: q)) == nil)
        #expect(Self.silentCycles(Self.pattern(from: 500, count: 3 * q) + Self.silence(q) + Self.pattern(from: 500 + 3 * q + 7, count: q)) == nil)
        var wrong = Self.pattern(from: 500, count: 4 * q)
        wrong[2 * 300 + 1] += 1.0 / 16384
        #expect(Self.silentCycles(wrong) == nil)
        #expect(Self.silentCycles(Self.pattern(from: 500, count: 3 * q) + Self.pattern(from: 500 + 3 * q + 1, count: q)) == nil)
    }
}
