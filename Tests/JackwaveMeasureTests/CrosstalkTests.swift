import Glibc
import Testing
@testable import JackwaveMeasure

@Suite("Crosstalk from each channel to every other")
struct CrosstalkTests {
    @Test("a −60 dB leak from channel 1 into channel 2 reads −60 dB within 0.05 dB; the other way is the noise")
    func leak() throws {
        var second = SimulatedDevice.Channel(noiseRMS: 1e-6)
        second.leaks = [0: 0.001]
        var device = SimulatedDevice(channels: [.init(gain: 0.5, noiseRMS: 1e-6), second])
        device.delay = 20.5
        let (_, result) = try Fixture.measure(device, settings: Fixture.settings(channels: 2, quick: true))
        // Channel 1 comes back at 0.5, the leak at 0.001: −54 dB relative to channel 1's own.
        let expected = 20 * log10(0.001 / 0.5)
        try #require(result.crosstalk.count == 2 && result.crosstalk.allSatisfy { $0.count == 2 }, "crosstalk \(result.crosstalk)")
        let oneToTwo = try #require(result.crosstalk[0][1])
        #expect(abs(oneToTwo - expected) < 0.05, "\(oneToTwo)")
        let twoToOne = try #require(result.crosstalk[1][0])
        #expect(twoToOne < -100, "\(twoToOne)")
        #expect(result.crosstalk[0][0] == nil && result.crosstalk[1][1] == nil)
    }
}
