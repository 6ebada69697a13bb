@testable import JackwaveCLI
import Testing

/// Feeds `seconds` of 480-frame blocks at 48 kHz with the same peak, starting at `from`.
private func feed(_ state: inout MeterState, peak: Float, from: Double, seconds: Double) {
    var frame = Int64((from * 48000).rounded())
    let end = Int64(((from + seconds) * 48000).rounded())
    while frame < end {
        state.feed(startFrame: frame, frameCount: 480, peaks: [peak])
        frame += 480
    }
}

@Suite("MeterState")
struct MeterStateTests {
    @Test("The hold mark stays at the peak for 1.5 s")
    func holdStays() {
        var state = MeterState(channels: 1, sampleRate: 48000)
        feed(&state, peak: 0.5, from: 0, seconds: 0.01)           // −6.02 dB at 0.01 s
        feed(&state, peak: 0.001, from: 0.01, seconds: 1.49)      // −60 dB until 1.5 s
        let hold = state.channels[0].displayedHold(at: state.now)
        #expect(abs(hold - MeterState.decibels(0.5)) < 1e-9)
    }

    @Test("After its 1.5 s the hold mark falls at 20 dB/s")
    func holdFalls() {
        var state = MeterState(channels: 1, sampleRate: 48000)
        feed(&state, peak: 0.5, from: 0, seconds: 0.01)
        feed(&state, peak: 0.001, from: 0.01, seconds: 1.99)      // until 2.0 s: 0.49 s past the hold
        let hold = state.channels[0].displayedHold(at: state.now)
        let expected = MeterState.decibels(0.5) - 20 * (2.0 - 0.01 - 1.5)
        #expect(abs(hold - expected) < 1e-6)
    }

    @Test("A new, higher peak moves the hold mark up at once")
    func holdRises() {
        var state = MeterState(channels: 1, sampleRate: 48000)
        feed(&state, peak: 0.1, from: 0, seconds: 0.01)
        feed(&state, peak: 0.8, from: 0.01, seconds: 0.01)
        #expect(abs(state.channels[0].displayedHold(at: state.now) - MeterState.decibels(0.8)) < 1e-9)
    }

    @Test("The clip mark is sticky: set by a full-scale sample, kept through silence")
    func clipSticky() {
        var state = MeterState(channels: 2, sampleRate: 48000)
        state.feed(startFrame: 0, frameCount: 480, peaks: [Float(0.999), 0.999])
        #expect(!state.channels[0].clipped)
        state.feed(startFrame: 480, frameCount: 480, peaks: [Float(1.0), 0.2])
        state.feed(startFrame: 960, frameCount: 48000, peaks: [Float(0), 0])
        #expect(state.channels[0].clipped)
        #expect(!state.channels[1].clipped)
    }

    @Test("The bar jumps to a peak and falls at 20 dB/s")
    func barRelease() {
        var state = MeterState(channels: 1, sampleRate: 48000)
        state.feed(startFrame: 0, frameCount: 480, peaks: [Float(1.0)])
        state.feed(startFrame: 480, frameCount: 24000, peaks: [Float(0)])   // 0.5 s of silence
        #expect(abs(state.channels[0].levelDecibels - -10) < 1e-9)
    }

    @Test("One strip column enters per 50 ms of stream, holding the loudest channel")
    func stripColumns() {
        var state = MeterState(channels: 2, sampleRate: 48000)
        // 0.1 s in blocks of 480: two slices of 2400 frames.
        for i in 0..<10 {
            state.feed(startFrame: Int64(i * 480), frameCount: 480, peaks: [Float(i < 5 ? 0.1 : 0.2), 0.3 + Float(i) / 100])
        }
        #expect(state.strip == [0.3 + Float(4) / 100, 0.3 + Float(9) / 100])
    }
}
