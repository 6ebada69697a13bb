import JackwaveMIDI
import Testing

/// The file clock that makes one tick one frame: division / tempo = rate / 1,000,000.
@Suite("MidiTiming")
struct MidiTimingTests {
    @Test("48000 Hz: division 480, tempo 10000 µs")
    func rate48000() {
        let t = MidiTiming(fileRate: 48000)
        #expect(t.division == 480)
        #expect(t.tempo == 10_000)
    }

    @Test("44100 Hz: division 441, tempo 10000 µs")
    func rate44100() {
        let t = MidiTiming(fileRate: 44100)
        #expect(t.division == 441)
        #expect(t.tempo == 10_000)
    }

    @Test("a rate not a multiple of 100 gets a division and tempo whose ratio is exactly rate / 1e6, the division within 15 bits",
          arguments: [22050, 11025, 7350, 1001, 32001, 44144])
    func oddRatesAreExact(rate: Int) {
        let t = MidiTiming(fileRate: rate)
        #expect(t.division * 1_000_000 == rate * t.tempo)
        #expect(t.division >= 1 && t.division <= 32767)
        #expect(t.tempo >= 1 && t.tempo < 1 << 24)
    }

    @Test("22050 Hz: 441 ticks a quarter of 20000 µs (the nearest to 10000 µs that is exact)")
    func rate22050() {
        let t = MidiTiming(fileRate: 22050)
        #expect(t.division == 441)
        #expect(t.tempo == 20_000)
    }

    @Test("rates a multiple of 100 keep the 10000 µs tempo", arguments: [8000, 16000, 32000, 88200, 96000, 192000, 768000])
    func roundRates(rate: Int) {
        let t = MidiTiming(fileRate: rate)
        #expect(t.tempo == 10_000 && t.division == rate / 100)
    }

    @Test("a rate whose reduced ratio to a million needs more than 15 bits has no exact clock, which --midi refuses",
          arguments: [44101, 48001, 96001])
    func coprimeRatesAreNotExact(rate: Int) {
        #expect(!MidiTiming(fileRate: rate).isExact)
    }

    @Test("the rates a server or --rate commonly runs at have an exact clock", arguments: [8000, 11025, 22050, 44100, 48000, 88200, 96000, 192000, 768000])
    func commonRatesAreExact(rate: Int) {
        #expect(MidiTiming(fileRate: rate).isExact)
    }
}
