import Testing
@testable import JackwavePlot

@Test("a 5 ms span gets millisecond ticks at a round step")
func fiveMilliseconds() {
    let t = TimeTicks.choose(from: 0, to: 0.005, maxCount: 10)
    #expect(t.style == .milliseconds)
    #expect(t.step == 0.0005 || t.step == 0.001)
    #expect((4...11).contains(t.values.count))
    #expect(t.label(0.002) == (t.step == 0.001 ? "2 ms" : "2.0 ms"))
}

@Test("a 90 s span gets whole-second ticks labelled in seconds")
func ninetySeconds() {
    let t = TimeTicks.choose(from: 0, to: 90, maxCount: 10)
    #expect(t.style == .seconds)
    #expect(t.step == 10)
    #expect(t.values.count == 10)
    #expect(t.label(30) == "30 s")
}

@Test("a 10 minute span gets m:ss ticks a minute apart")
func tenMinutes() {
    let t = TimeTicks.choose(from: 0, to: 600, maxCount: 12)
    #expect(t.style == .minutes)
    #expect(t.step == 60)
    #expect(t.label(120) == "2:00")
}

@Test("a 2 h span gets h:mm:ss ticks at a clock-round step")
func twoHours() {
    let t = TimeTicks.choose(from: 0, to: 7200, maxCount: 12)
    #expect(t.style == .hours)
    #expect(t.step == 900)
    #expect(t.values.count == 9)
    #expect(t.label(5400) == "1:30:00")
}

@Test("a short span deep into a recording keeps absolute times with enough decimals")
func zoomedFarIn() {
    let t = TimeTicks.choose(from: 65.0, to: 65.005, maxCount: 10)
    #expect(t.style == .seconds)
    #expect(t.label(65.002) == (t.step == 0.001 ? "65.002 s" : "65.0020 s"))
}

@Test("a fractional step in m:ss shows fractional seconds")
func fractionalMinutes() {
    let t = TimeTicks.choose(from: 150, to: 152, maxCount: 10)
    #expect(t.style == .minutes)
    #expect(t.step == 0.2 || t.step == 0.5)
    #expect(t.label(150.5).hasPrefix("2:30.5"))
}

@Test("tick counts stay between 3 and the limit for spans from 1 ms to a day")
func countsAreSane() {
    var span = 0.001
    while span <= 86_400 {
        for start in [0.0, 1.234, 100.5] {
            let t = TimeTicks.choose(from: start, to: start + span, maxCount: 12)
            #expect((3...12).contains(t.values.count), "span \(span) from \(start): \(t.values.count) ticks")
            #expect(t.values.allSatisfy { $0 >= start - 1e-9 * span && $0 <= start + span * (1 + 1e-9) })
            #expect(t.values.allSatisfy { abs($0 / t.step - ($0 / t.step).rounded()) < 1e-6 })
        }
        span *= 1.7
    }
}

@Test("a span of 10^12 s, as long as a MIDI file may last, gets no more ticks than the limit")
func longestSpan() {
    let t = TimeTicks.choose(from: 0, to: 1e12, maxCount: 12)
    #expect((3...12).contains(t.values.count), "\(t.values.count) ticks")
    #expect(t.values.allSatisfy { $0 >= 0 && $0 <= 1e12 })
    #expect(t.label(t.values.last ?? 0).hasSuffix(":00:00"))
}

@Test("the clock text rounds 59.9996 s up to the next minute")
func clockRounding() {
    #expect(TimeText.clock(59.9996, decimals: 3, hours: false) == "1:00.000")
    #expect(TimeText.clock(3725, decimals: 0, hours: true) == "1:02:05")
}

@Test("linear amplitude ticks are symmetric and finer in a tall lane")
func linearAmplitudeTicks() {
    #expect(AmplitudeScale.linear.ticks(laneHeight: 60).map(\.label) == ["-1", "0", "1"])
    #expect(AmplitudeScale.linear.ticks(laneHeight: 200).map(\.label) == ["-1", "-0.5", "0", "0.5", "1"])
}

@Test("the dB scale puts -6 dBFS at nine tenths of the way from the centre to the edge")
func decibelPosition() {
    let scale = AmplitudeScale.decibels(floor: -60)
    #expect(abs(scale.position(0.5) - (60 - 6.0206) / 60) < 1e-4)
    #expect(abs(scale.position(-0.5) + (60 - 6.0206) / 60) < 1e-4)
    #expect(scale.position(0.0001) == 0)
    #expect(scale.position(2) == 1)
}

@Test("a length a hair under an hour is written as one hour")
func almostAnHour() {
    #expect(TimeText.duration(3599.99999) == "1:00:00.000")
    #expect(TimeTicks.choose(from: 0, to: 3599.9999999, maxCount: 12).label(3600) == "1:00:00")
}
