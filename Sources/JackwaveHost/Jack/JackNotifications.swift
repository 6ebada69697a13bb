import CJack
import Synchronization

/// JACK's non-realtime notifications (xruns, shutdown, rate and period changes, port
/// connections), turned into counters and flags in `EngineSignals` and lines in a
/// `MessageQueue`. JACK calls these on its notification thread, not the process thread.
///
/// The callbacks never call back into libjack: a notification that did (to name a port)
/// could wait on a lock that `jack_client_close` on the main thread holds while it waits
/// for the notification thread. Connections are queued as port ids and named by the main
/// thread (`reportConnections`), and `quiet()` turns every callback into a no-op before
/// the client is deactivated and closed.
public final class JackNotifications: @unchecked Sendable {
    public let signals: EngineSignals
    public let messages: MessageQueue
    /// Our own ports' full names, to report connections that concern us.
    let client: JackClient
    let initialSampleRate: Int
    /// Connections seen but not yet reported: (port a, port b, connected).
    private let connectionEvents = Mutex<[(jack_port_id_t, jack_port_id_t, Bool)]>([])
    /// Set before deactivation: callbacks then do nothing (relaxed: a lone flag).
    private let quieted = Atomic<Bool>(false)

    public init(client: JackClient, signals: EngineSignals, messages: MessageQueue) {
        self.client = client
        self.signals = signals
        self.messages = messages
        self.initialSampleRate = client.sampleRate
    }

    /// Registers every notification callback. `self` must outlive the client.
    public func install() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        client.setXrunCallback({ context in
            Unmanaged<JackNotifications>.fromOpaque(context!).takeUnretainedValue()
                .signals.xruns.add(1, ordering: .relaxed)
            return 0
        }, context: context)
        client.setShutdownCallback({ _, reason, context in
            let me = Unmanaged<JackNotifications>.fromOpaque(context!).takeUnretainedValue()
            me.signals.serverGone.store(true, ordering: .relaxed)
            let why = reason.map { String(cString: $0) } ?? "no reason given"
            me.messages.post("the JACK server shut down (\(why))")
        }, context: context)
        client.setBufferSizeCallback({ _, context in
            Unmanaged<JackNotifications>.fromOpaque(context!).takeUnretainedValue()
                .signals.bufferSizeChanges.add(1, ordering: .relaxed)
            return 0
        }, context: context)
        client.setSampleRateCallback({ rate, context in
            let me = Unmanaged<JackNotifications>.fromOpaque(context!).takeUnretainedValue()
            if Int(rate) != me.initialSampleRate {
                me.signals.sampleRateChanged.store(true, ordering: .relaxed)
            }
            return 0
        }, context: context)
        client.setPortConnectCallback({ a, b, connected, context in
            let me = Unmanaged<JackNotifications>.fromOpaque(context!).takeUnretainedValue()
            guard !me.quieted.load(ordering: .relaxed) else { return }
            me.connectionEvents.withLock { $0.append((a, b, connected != 0)) }
        }, context: context)
    }

    /// Names the queued connections that concern this client and posts them as lines.
    /// Main thread, while the client is open.
    public func reportConnections() {
        let events = connectionEvents.withLock { e in defer { e.removeAll() }; return e }
        for (a, b, connected) in events where client.isMine(portID: a) || client.isMine(portID: b) {
            guard let from = client.portName(id: a), let to = client.portName(id: b) else { continue }
            messages.post(connected ? "connected \(from) -> \(to)" : "disconnected \(from) -> \(to)")
        }
    }

    /// Whether `quiet()` has been called.
    public var isQuiet: Bool { quieted.load(ordering: .relaxed) }

    /// Stops reacting to notifications; call before `jack_deactivate`. Reports what is
    /// queued first, unless the server is gone (then nothing may be asked of libjack).
    public func quiet(reportingQueued report: Bool) {
        if report { reportConnections() }
        quieted.store(true, ordering: .relaxed)
    }
}
