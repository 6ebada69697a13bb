import CJack

/// JACK's non-realtime notifications (xruns, shutdown, rate and period changes, port
/// connections), turned into counters and flags in `EngineSignals` and lines in a
/// `MessageQueue`. JACK calls these on its notification thread, not the process thread.
public final class JackNotifications: @unchecked Sendable {
    public let signals: EngineSignals
    public let messages: MessageQueue
    /// Our own ports' full names, to report connections that concern us.
    let client: JackClient
    let initialSampleRate: Int

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
            guard me.client.isMine(portID: a) || me.client.isMine(portID: b),
                  let from = me.client.portName(id: a), let to = me.client.portName(id: b) else { return }
            me.messages.post(connected != 0 ? "connected \(from) -> \(to)" : "disconnected \(from) -> \(to)")
        }, context: context)
    }
}
