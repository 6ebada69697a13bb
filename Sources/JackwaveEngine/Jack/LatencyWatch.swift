import CJack
import Synchronization

/// Follows the capture latency of jackwave's inputs: read at a connection's start (`read`)
/// and again after every latency callback (`jack_set_latency_callback`).
///
/// An input's latency is the span of what its sources declare (`JackCaptureLatency`), read
/// from the sources, not the input: libjack fills in the input's own range only when it runs
/// this client's latency callback, a moment after `jack_connect` returns. The callback only
/// counts, on the notification thread, and the main thread reads the new ranges when the
/// count moved (`readIfChanged`): no allocation, no call into libjack. A client has one
/// latency callback, so this one is installed apart from `JackNotifications.install`.
public final class LatencyWatch: @unchecked Sendable {
    public let client: JackClient
    public let inputs: [JackPort]
    /// Latency callbacks for capture latency so far (relaxed: a lone counter).
    private let changes = Atomic<Int>(0)
    private var seen = -1

    public init(client: JackClient, inputs: [JackPort]) {
        self.client = client
        self.inputs = inputs
    }

    /// Registers the latency callback. Before `jack_activate`; `self` must outlive the client.
    public func install() {
        client.setLatencyCallback({ mode, context in
            guard mode == JackCaptureLatency else { return }
            Unmanaged<LatencyWatch>.fromOpaque(context!)._withUnsafeGuaranteedRef {
                $0.changes.add(1, ordering: .relaxed)
            }
        }, context: Unmanaged.passUnretained(self).toOpaque())
    }

    /// Every input's capture latency now, in input order: nil for an input nothing is
    /// connected to. Main thread, while the client is open.
    public func read() -> [DeclaredLatency?] {
        seen = changes.load(ordering: .relaxed)
        return inputs.map { input in
            let ranges = input.connections.compactMap { client.captureLatency(ofPortNamed: $0) }
            guard let first = ranges.first else { return nil }
            return ranges.dropFirst().reduce(first) { DeclaredLatency(minimum: Swift.min($0.minimum, $1.minimum), maximum: Swift.max($0.maximum, $1.maximum)) }
        }
    }

    /// The ranges, if a latency callback came since the last read; nil if none did.
    public func readIfChanged() -> [DeclaredLatency?]? {
        changes.load(ordering: .relaxed) == seen ? nil : read()
    }

    /// Latency callbacks seen so far.
    public var callbackCount: Int { changes.load(ordering: .relaxed) }
}
