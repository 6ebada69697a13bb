import JackwaveRecording
import Testing

/// The pre-roll keeps the last frames, in order, whatever the writes' sizes.
@Suite("PreRollBuffer")
struct PreRollBufferTests {
    /// The frames `withLast` hands over, flattened.
    func last(_ buffer: PreRollBuffer, _ n: Int) -> [Float] {
        var out: [Float] = []
        buffer.withLast(n) { p, count in out += Array(UnsafeBufferPointer(start: p, count: count * buffer.channels)) }
        return out
    }

    @Test("after many writes across the wrap it holds exactly the last capacity frames, oldest first")
    func lastFramesInOrder() {
        let buffer = PreRollBuffer(capacity: 7, channels: 2)
        var next: Float = 0
        for size in [3, 5, 1, 9, 4] {
            let frames = (0..<size * 2).map { _ in defer { next += 1 }; return next }
            frames.withUnsafeBufferPointer { buffer.append($0.baseAddress!, frames: size) }
        }
        #expect(buffer.count == 7)
        let expected: [Float] = (30..<44).map { Float($0) }
        #expect(last(buffer, 7) == expected)
        #expect(last(buffer, 2) == [40, 41, 42, 43])
    }

    @Test("before it is full it holds what came; clear forgets it")
    func partialAndClear() {
        let buffer = PreRollBuffer(capacity: 100, channels: 1)
        let frames: [Float] = [1, 2, 3]
        frames.withUnsafeBufferPointer { buffer.append($0.baseAddress!, frames: 3) }
        #expect(last(buffer, 10) == [1, 2, 3])
        buffer.clear()
        #expect(buffer.count == 0 && last(buffer, 10).isEmpty)
    }
}
