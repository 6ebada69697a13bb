import Testing
@testable import JackwaveMeasure

@Suite("Frequency response against the transfer function's closed form")
struct ResponseTests {
    /// A peaking equalizer's response relative to 1 kHz, and each measured point's error.
    func errors(_ q: [Double], delay: Double, quick: Bool, noise: Double) throws -> [(hz: Double, db: Double, deg: Double)] {
        var device = SimulatedDevice(channels: [.init(biquad: q, noiseRMS: noise)])
        device.delay = delay
        let (_, result) = try Fixture.measure(device, settings: Fixture.settings(quick: quick))
        let fs = Fixture.sampleRate
        let reference = Truth.biquad(q, hz: 1000, sampleRate: fs)
        // The phase is reported with the measured latency's linear phase removed: the truth's
        // is the biquad's, less the linear phase of what the latency differs from the delay by.
        let channel = try #require(result.channels.first, "no channel measured")
        let excess = try #require(channel.latency).frames - delay
        return channel.response.map { point in
            let truth = Truth.biquad(q, hz: point.hz, sampleRate: fs) / reference
            let linear = 2 * Double.pi * (point.hz - 1000) * excess / fs
            var deg = point.deg - (truth.phase + linear) * 180 / Double.pi
            if deg > 180 { deg -= 360 } else if deg < -180 { deg += 360 }
            return (point.hz, point.db - 20 * log10(truth.magnitude), deg)
        }
    }

    @Test("a biquad behind a fractional delay: every 1/24-octave point from 20 Hz to 20 kHz within 0.002 dB and 0.02°",
          arguments: [false, true])
    func biquad(quick: Bool) throws {
        let q = Fixture.peaking(hz: 3000, gain: 6, q: 1.4)
        let e = try errors(q, delay: 41.37, quick: quick, noise: 1e-5)
        #expect(e.count == 239)
        #expect(e.first.map { abs($0.hz - 20.2) < 0.1 } == true && e.last.map { abs($0.hz - 19_585) < 1 } == true)
        let worst = try #require(e.max { abs($0.db) < abs($1.db) }, "no response points")
        #expect(abs(worst.db) < 0.002, "\(worst)")
        let worstPhase = try #require(e.max { abs($0.deg) < abs($1.deg) }, "no response points")
        #expect(abs(worstPhase.deg) < 0.02, "\(worstPhase)")
    }

    @Test("a low shelf's slow bass is measured to 20 Hz within 0.005 dB")
    func lowShelf() throws {
        // RBJ low shelf, +6 dB below 100 Hz: its response changes most where windows are longest.
        let fs = Fixture.sampleRate, a = pow(10, 6.0 / 40), w = 2 * Double.pi * 100 / fs
        let alpha = sin(w) / 2 * (2.0).squareRoot(), c = cos(w), r = 2 * a.squareRoot() * alpha
        let a0 = (a + 1) + (a - 1) * c + r
        let q = [a * ((a + 1) - (a - 1) * c + r) / a0, 2 * a * ((a - 1) - (a + 1) * c) / a0, a * ((a + 1) - (a - 1) * c - r) / a0,
                 -2 * ((a - 1) + (a + 1) * c) / a0, ((a + 1) + (a - 1) * c - r) / a0]
        let e = try errors(q, delay: 3, quick: false, noise: 0)
        let worst = try #require(e.max { abs($0.db) < abs($1.db) }, "no response points")
        #expect(abs(worst.db) < 0.005, "\(worst)")
    }
}
import Glibc
