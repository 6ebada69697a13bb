import CJack

/// A port's latency range in frames, as JACK states it (`jack_latency_range_t`).
public struct LatencyRange: Equatable, Sendable, CustomStringConvertible {
    public let min: Int
    public let max: Int

    public init(min: Int, max: Int) {
        self.min = min
        self.max = max
    }

    /// "256 frames" or "256–512 frames".
    public var description: String { min == max ? "\(min) frames" : "\(min)–\(max) frames" }
}

extension JackPort {
    /// `jack_port_get_latency_range(port, JackCaptureLatency)`: for one of jackwave's inputs,
    /// how long ago (in frames) the audio it receives in a cycle entered the graph at its
    /// source: the sum JACK computed along the connection, from what the ports upstream
    /// declared (a sound card's capture latency, a network link's). 0 when nothing upstream
    /// declares any (a link that does not, as zita-n2j, looks like no latency at all).
    public var captureLatency: LatencyRange {
        var range = jack_latency_range_t()
        jack_port_get_latency_range(handle, JackCaptureLatency, &range)
        return LatencyRange(min: Int(range.min), max: Int(range.max))
    }
}
