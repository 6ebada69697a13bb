import JackwaveHost
import Testing

/// `LatencyRange`: what `jack_port_get_latency_range` gives, as it is told.
@Suite("Latency range")
struct LatencyRangeTests {
    @Test("a range reads as one figure when its ends agree, as both when they differ")
    func text() {
        #expect(LatencyRange(min: 256, max: 256).description == "256 frames")
        #expect(LatencyRange(min: 256, max: 512).description == "256–512 frames")
        #expect(LatencyRange(min: 0, max: 0) != LatencyRange(min: 0, max: 1))
    }
}
