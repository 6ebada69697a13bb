import JackwaveEngine
import JackwaveHost
import Testing

/// `DeclaredLatency` (JackwaveEngine): what `jack_port_get_latency_range` gives, as the
/// run tells it (JackwaveHost).
@Suite("Declared latency")
struct DeclaredLatencyTests {
    @Test("a range reads as one figure when its ends agree, as both when they differ")
    func text() {
        #expect(DeclaredLatency(minimum: 256, maximum: 256).description == "256 frames")
        #expect(DeclaredLatency(minimum: 256, maximum: 512).description == "256–512 frames")
        #expect(DeclaredLatency(minimum: 0, maximum: 0) != DeclaredLatency(minimum: 0, maximum: 1))
    }
}
