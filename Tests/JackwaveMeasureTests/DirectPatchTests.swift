import Glibc
import Testing
@testable import JackwaveMeasure

@Suite("The analysis of a direct patch: every figure exact")
struct DirectPatchTests {
    @Test("a wire reads latency 0, a response flat within 0.001 dB and 0.01°, THD+N at the float floor")
    func wire() throws {
        let (_, result) = try Fixture.measure(SimulatedDevice(channels: [.init(), .init()]), settings: Fixture.settings(channels: 2))
        for channel in result.channels {
            let latency = try #require(channel.latency)
            #expect(abs(latency.frames) < 1e-6)
            #expect(!latency.inverted)
            #expect(channel.response.count == 239)
            #expect(channel.response.allSatisfy { abs($0.db) < 0.001 && abs($0.deg) < 0.01 })
            let thdN = try #require(channel.thdN)
            #expect(thdN.thdNDB < -130)
            #expect(abs(thdN.fundamentalDBFS - -6) < 0.001)
            #expect(try #require(channel.dynamicRangeDB) > 130)
            for curve in channel.harmonics { #expect(curve.points.allSatisfy { $0.db < -120 }, "H\(curve.order)") }
        }
        try #require(result.crosstalk.count == 2 && result.crosstalk.allSatisfy { $0.count == 2 }, "crosstalk \(result.crosstalk)")
        #expect(result.crosstalk[0][1] == -Double.infinity && result.crosstalk[1][0] == -Double.infinity)
        #expect(result.problems.isEmpty)
    }
}
