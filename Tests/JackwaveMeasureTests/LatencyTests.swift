import Glibc
import Testing
@testable import JackwaveMeasure

@Suite("Latency from the sweep's impulse response")
struct LatencyTests {
    @Test("a fractional delay is found to 0.001 frame with noise 100 dB under the sweep", arguments: [37.3, 100.77, 256.0, 1000.5])
    func fractionalDelay(frames: Double) throws {
        var device = SimulatedDevice(channels: [.init(noiseRMS: 1e-5 / 2.0.squareRoot())])
        device.delay = frames
        let (_, result) = try Fixture.measure(device, settings: Fixture.settings(quick: true))
        let channel = try #require(result.channels.first, "no channel measured")
        let latency = try #require(channel.latency)
        #expect(abs(latency.frames - frames) < 0.001, "\(latency.frames)")
        #expect(!latency.inverted)
    }

    @Test("an inverting path is found inverted, at the same latency")
    func inverted() throws {
        var device = SimulatedDevice(channels: [.init(invert: true)])
        device.delay = 12.25
        let (_, result) = try Fixture.measure(device, settings: Fixture.settings(quick: true))
        let channel = try #require(result.channels.first, "no channel measured")
        let latency = try #require(channel.latency)
        #expect(latency.inverted)
        #expect(abs(latency.frames - 12.25) < 0.001)
        // Phase is relative to 1 kHz: the inversion shows only as the polarity.
        #expect(channel.response.allSatisfy { abs($0.deg) < 0.05 })
    }

    @Test("a path that gives nothing back is a problem, not a figure")
    func silence() throws {
        var device = SimulatedDevice(channels: [.init(gain: 0, noiseRMS: 1e-4)])
        device.seed = 7
        let (_, result) = try Fixture.measure(device, settings: Fixture.settings(quick: true))
        let channel = try #require(result.channels.first, "no channel measured")
        #expect(channel.latency == nil)
        #expect(channel.response.isEmpty)
        #expect(result.problems.count == 1 && result.problems[0].contains("no response from output 1"))
    }

    @Test("digital silence is no response either (not an infinitely clean one)")
    func digitalSilence() throws {
        let (_, result) = try Fixture.measure(SimulatedDevice(channels: [.init(gain: 0)]), settings: Fixture.settings(quick: true))
        #expect(try #require(result.channels.first, "no channel measured").latency == nil)
        #expect(result.problems.count == 1 && result.problems[0].contains("digital silence"), "\(result.problems)")
    }
}
