@testable import JackwaveHost
import JackwaveSoundFiles
import Testing

/// What a run's connections add up to across server restarts (`--reconnect`).
@Suite("Run totals")
struct RunTotalsTests {
    @Test("a gap the width of the kernel's clock at a 4 GHz server counts Int64.max frames, and so does the sum of two")
    func gapsOfCenturies() {
        // CLOCK_REALTIME spans 0 to 2^63 ns (292 years); a server's rate is a 32-bit count.
        let gap = ServerGap(from: WallClockTime(seconds: 0, nanoseconds: 0),
                            to: WallClockTime(seconds: 9_223_372_036, nanoseconds: 0), sampleRate: 4_000_000_000)
        #expect(gap.framesLost == .max)
        var totals = RunTotals()
        totals.add(gap)
        totals.add(ServerGap(from: WallClockTime(seconds: 0, nanoseconds: 0),
                             to: WallClockTime(seconds: 3600, nanoseconds: 0), sampleRate: 48000))
        #expect(totals.gaps == 2 && totals.gapFrames == .max)
    }

    @Test("a gap of a minute at 48 kHz counts its frames exactly; a clock set back counts none")
    func ordinaryGaps() {
        let minute = ServerGap(from: WallClockTime(seconds: 1000, nanoseconds: 500_000_000),
                               to: WallClockTime(seconds: 1060, nanoseconds: 500_000_000), sampleRate: 48000)
        #expect(minute.seconds == 60 && minute.framesLost == 2_880_000)
        let back = ServerGap(from: WallClockTime(seconds: 1060, nanoseconds: 0), to: WallClockTime(seconds: 1000, nanoseconds: 0),
                             sampleRate: 48000)
        #expect(back.seconds == 0 && back.framesLost == 0)
    }
}
