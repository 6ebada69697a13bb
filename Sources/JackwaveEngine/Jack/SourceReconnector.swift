import Glibc
import JackwaveRunSupport

/// Remakes a connection's planned source connections when their ports come back:
/// `PortWatch`'s rule, fed by the registrations `JackNotifications` queues, acted on with
/// `JackClient.connect`, each going and coming said (a line, `source_gone` and `source_back`
/// events). Main thread only: libjack is asked here, never from the notification thread.
/// Registrations queued before `begin` are the run's own start, and are dropped.
package final class SourceReconnector {
    let client: JackClient
    let notifications: JackNotifications
    let messages: MessageQueue
    /// Told of each source that goes (`.sourceGone`) or comes back (`.sourceBack`): its port,
    /// the input it fed, and the stream frame (the session makes it an event).
    let tell: (RunEventKind, _ port: String, _ input: String, _ streamFrame: Int) -> Void
    let signals: EngineSignals
    /// This client's inputs, by full name.
    let inputs: [String: JackPort]
    private var watch: PortWatch
    /// Set once the planned connections are made.
    private var watching = false

    package init(plan: ConnectionPlan, inputs: [JackPort], client: JackClient, notifications: JackNotifications,
         messages: MessageQueue, signals: EngineSignals,
         tell: @escaping (RunEventKind, _ port: String, _ input: String, _ streamFrame: Int) -> Void) {
        watch = PortWatch(plan: plan, inputs: inputs.map(\.fullName))
        self.inputs = Dictionary(inputs.map { ($0.fullName, $0) }, uniquingKeysWith: { a, _ in a })
        self.client = client
        self.notifications = notifications
        self.messages = messages
        self.tell = tell
        self.signals = signals
    }

    /// The planned connections are made: from now on, a source that goes is watched for.
    package func begin() {
        _ = notifications.takeRegistrations()
        watching = true
    }

    /// Acts on the registrations since the last pass: sources gone are said, sources back are
    /// connected again and said. Every pass asks the graph (one `jack_port_by_name` a source, no
    /// server round trip): JACK2 tells of a registration before the graph shows it, so a look
    /// made on the notification alone can miss it, and no second notification comes.
    package func poll() {
        guard watching, !watch.plan.isEmpty else { return }
        let registered = notifications.takeRegistrations()
        // Those gone first: a source that went and came back between two passes is then
        // seen by its registration (its connection no longer holds).
        var actions = watch.sourcesGone(exists: client.portExists)
        let back = watch.missing.filter(client.portExists)
        for name in Set(registered).union(back).sorted() {
            actions += watch.portRegistered(name, isConnected: { source, input in
                inputs[input]?.connections.contains(source) ?? false
            })
        }
        for action in actions { act(action) }
    }

    private func act(_ action: PortWatch.Action) {
        let frame = Int(signals.streamFrames.load(ordering: .relaxed))
        switch action {
        case let .vanished(source, input):
            let short = inputs[input]?.shortName ?? input
            messages.post("\(source) is gone (it fed \(short)): \(short) records silence until a port of that name is back")
            tell(.sourceGone, source, short, frame)
        case let .reconnect(source, input):
            guard client.portExists(source) else {
                watch.stillMissing(source)
                return
            }
            let result = client.connect(source: source, destination: input)
            guard result == 0 || result == EEXIST else {
                messages.post("\(source) is back, but connecting it to \(input) failed; that input stays unconnected")
                watch.stillMissing(source)
                return
            }
            let short = inputs[input]?.shortName ?? input
            messages.post("\(source) is back: connected to \(short) again")
            tell(.sourceBack, source, short, frame)
        }
    }
}
