import CJack
import Glibc
import JackwaveRunSupport
import Synchronization

/// JACK's notifications (xruns, shutdown, rate changes, connections, registrations) turned
/// into counters and flags in `EngineSignals`, lines in a `MessageQueue`, and port ids.
///
/// The callbacks never call back into libjack: one that did (to name a port) could wait on a
/// lock that `jack_client_close` holds while it waits for the notification thread. So
/// connections and registrations are queued as port ids for the main thread to name
/// (`reportConnections`, `takeRegistrations`); a port that is gone cannot be named and is not
/// queued. The shutdown callback may run on the process thread (JACK2, when the server
/// vanishes mid-cycle), so it only copies the reason into storage allocated here and sets a flag.
public final class JackNotifications: @unchecked Sendable {
    public let signals: EngineSignals
    public let messages: MessageQueue
    /// The client whose ports' connections are reported.
    let client: JackClient
    let initialSampleRate: Int
    /// Connections seen but not yet reported: (port a, port b, connected).
    private let connectionEvents = Mutex<[(jack_port_id_t, jack_port_id_t, Bool)]>([])
    /// Told, on the main thread, of every connection made or broken between two of this
    /// client's own ports (full names), before it is reported.
    private let ownConnectionChanged: (_ from: String, _ to: String, _ connected: Bool) -> Void
    /// Told, on the main thread, of every connection reported (`--events`).
    private let connectionReported: (_ from: String, _ to: String, _ connected: Bool) -> Void
    /// Set before deactivation: connections are then no longer queued (relaxed: a lone flag).
    private let quieted = Atomic<Bool>(false)
    /// Ports registered since the last `takeRegistrations`, at most `registrationLimit`: a
    /// flood beyond it is dropped, which costs nothing, since the reader asks the graph too.
    private let registrations = Mutex<[jack_port_id_t]>([])
    static let registrationLimit = 1024
    /// The server's shutdown reason, copied by the shutdown callback before it stores
    /// `signals.serverGone` (`.releasing`); read after loading that flag (`.acquiring`).
    private let shutdownReason: UnsafeMutablePointer<CChar>
    private static let shutdownReasonCapacity = 256  // the callback copies at most 255 bytes

    /// Notifications of `client` into `signals` and `messages`; the two closures are told of
    /// connections, on the main thread, as `reportConnections` names them.
    public init(client: JackClient, signals: EngineSignals, messages: MessageQueue,
                ownConnectionChanged: @escaping (_ from: String, _ to: String, _ connected: Bool) -> Void,
                connectionReported: @escaping (_ from: String, _ to: String, _ connected: Bool) -> Void) {
        self.client = client
        self.ownConnectionChanged = ownConnectionChanged
        self.connectionReported = connectionReported
        self.signals = signals
        self.messages = messages
        self.initialSampleRate = client.sampleRate
        shutdownReason = .allocate(capacity: Self.shutdownReasonCapacity)
        shutdownReason.initialize(repeating: 0, count: Self.shutdownReasonCapacity)
    }

    deinit { shutdownReason.deallocate() }

    /// "the JACK server shut down (reason)": call after `signals.serverGone` read true.
    public var shutdownLine: String {
        let reason = String(cString: shutdownReason)
        return "the JACK server shut down (\(reason.isEmpty ? "no reason given" : reason))"
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
            Unmanaged<JackNotifications>.fromOpaque(context!)._withUnsafeGuaranteedRef { me in
                // 255: the capacity less the terminator, as a literal (no static to initialise here).
                if let reason { _ = strncpy(me.shutdownReason, reason, 255) }
                me.signals.serverGone.store(true, ordering: .releasing)
            }
        }, context: context)
        client.setSampleRateCallback({ rate, context in
            let me = Unmanaged<JackNotifications>.fromOpaque(context!).takeUnretainedValue()
            if Int(rate) != me.initialSampleRate {
                me.signals.changedSampleRate.store(Int(rate), ordering: .relaxed)
            }
            return 0
        }, context: context)
        client.setPortConnectCallback({ a, b, connected, context in
            let me = Unmanaged<JackNotifications>.fromOpaque(context!).takeUnretainedValue()
            guard !me.quieted.load(ordering: .relaxed) else { return }
            me.connectionEvents.withLock { $0.append((a, b, connected != 0)) }
        }, context: context)
        client.setPortRegistrationCallback({ port, registered, context in
            let me = Unmanaged<JackNotifications>.fromOpaque(context!).takeUnretainedValue()
            guard !me.quieted.load(ordering: .relaxed) else { return }
            guard registered != 0 else { return }
            me.registrations.withLock { ids in
                if ids.count < JackNotifications.registrationLimit { ids.append(port) }
            }
        }, context: context)
    }

    /// The ports registered since the last call, by full name (those gone again since, or
    /// not yet in the graph, are left out). Main thread, while the client is open.
    public func takeRegistrations() -> [String] {
        registrations.withLock { ids in defer { ids.removeAll() }; return ids }.compactMap { client.portName(id: $0) }
    }

    /// Names the queued connections that concern this client and posts them as lines.
    /// Main thread, while the client is open.
    public func reportConnections() {
        let events = connectionEvents.withLock { e in defer { e.removeAll() }; return e }
        for (a, b, connected) in events where client.isMine(portID: a) || client.isMine(portID: b) {
            guard let from = client.portName(id: a), let to = client.portName(id: b) else { continue }
            if client.isMine(portID: a) && client.isMine(portID: b) { ownConnectionChanged(from, to, connected) }
            connectionReported(from, to, connected)
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
