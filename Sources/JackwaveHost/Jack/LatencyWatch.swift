import CJack
import Synchronization

/// Follows the capture latency of jackwave's inputs: read once at start (`read`), and again
/// after every latency callback (JACK calls it when a connection or a port's declared latency
/// changes, `jack_set_latency_callback`).
///
/// The callback only counts (an atomic), on JACK's notification thread: the main thread,
/// polling as it does for other notifications, reads the new ranges when the count moved
/// (`readIfChanged`), so the callback neither allocates nor calls back into libjack (see
/// `JackNotifications`). Installing it is separate from `JackNotifications.install`: a client
/// has one latency callback, and this is it.
public final class LatencyWatch: @unchecked Sendable {
    public let inputs: [JackPort]
    /// Latency callbacks for capture latency so far (relaxed: a lone counter).
    private let changes = Atomic<Int>(0)
    private var seen = -1

    public init(inputs: [JackPort]) {
        self.inputs = inputs
    }

    /// Registers the latency callback. Before `jack_activate`; `self` must outlive the client.
    public func install(on client: JackClient) {
        client.setLatencyCallback({ mode, context in
            guard mode == JackCaptureLatency else { return }
            Unmanaged<LatencyWatch>.fromOpaque(context!)._withUnsafeGuaranteedRef {
                $0.changes.add(1, ordering: .relaxed)
            }
        }, context: Unmanaged.passUnretained(self).toOpaque())
    }

    /// Every input's capture latency now, in input order.
    public func read() -> [LatencyRange] {
        seen = changes.load(ordering: .relaxed)
        return inputs.map(\.captureLatency)
    }

    /// The ranges, if a latency callback came since the last read; nil if none did.
    public func readIfChanged() -> [LatencyRange]? {
        changes.load(ordering: .relaxed) == seen ? nil : read()
    }

    /// Latency callbacks seen so far.
    public var callbackCount: Int { changes.load(ordering: .relaxed) }
}
