import CJack

/// A port's latency as JACK declares it: the range `jack_port_get_latency_range` gives.
public struct DeclaredLatency: Sendable, Equatable {
    /// Which way along the graph: `capture` is how long ago what arrives at the port entered
    /// it from a capture port; `playback`, how long until what leaves the port reaches a
    /// playback port.
    public enum Kind: Sendable { case capture, playback }

    public let minimum: Int
    public let maximum: Int

    public init(minimum: Int, maximum: Int) {
        self.minimum = minimum
        self.maximum = maximum
    }
}

extension JackPort {
    /// `jack_port_get_latency_range` with `JackCaptureLatency` or `JackPlaybackLatency`, in
    /// frames. Meaningful once the port is connected and the server has recomputed the
    /// graph's latencies (libjack: from within or after its latency callbacks), so asked
    /// after the connections have carried audio.
    public func declaredLatency(_ kind: DeclaredLatency.Kind) -> DeclaredLatency {
        var range = jack_latency_range_t(min: 0, max: 0)
        jack_port_get_latency_range(handle, kind == .capture ? JackCaptureLatency : JackPlaybackLatency, &range)
        return DeclaredLatency(minimum: Int(range.min), maximum: Int(range.max))
    }
}
