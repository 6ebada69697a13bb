import JackwaveDSP
import Testing

@Suite("The server's frame clock from cycle to cycle")
struct CycleClockTests {
    @Test("the first cycle skips nothing, whatever its start")
    func firstCycle() {
        var clock = CycleClock()
        #expect(clock.advance(start: 123_456, frames: 256) == 0)
        #expect(clock.lastCycleEnd == 123_712)
    }

    @Test("a cycle that starts where the last one ended skipped nothing")
    func contiguous() {
        var clock = CycleClock()
        _ = clock.advance(start: 1000, frames: 256)
        #expect(clock.advance(start: 1256, frames: 256) == 0)
    }

    @Test("a cycle that starts later counts the frames between as skipped")
    func skipped() {
        var clock = CycleClock()
        _ = clock.advance(start: 1000, frames: 256)
        #expect(clock.advance(start: 1256 + 512, frames: 256) == 512)
    }

    @Test("a skip across the 32-bit clock's wrap counts the frames between")
    func acrossTheWrap() {
        var clock = CycleClock()
        _ = clock.advance(start: UInt32.max - 99, frames: 64)   // ends at max - 35
        #expect(clock.advance(start: 28, frames: 64) == 64)     // max - 35 … max, 0 … 27
    }

    @Test("a clock that steps back, or jumps a minute at 768 kHz or more, is a reset, not a skip")
    func reset() {
        var clock = CycleClock()
        _ = clock.advance(start: 100_000, frames: 256)
        #expect(clock.advance(start: 50_000, frames: 256) == 0)
        #expect(clock.advance(start: 50_256 + UInt32(CycleClock.resetFrames), frames: 256) == 0)
        #expect(clock.advance(start: 50_512 + UInt32(CycleClock.resetFrames) + UInt32(CycleClock.resetFrames - 1), frames: 256)
                == CycleClock.resetFrames - 1)
    }
}
