/// Remakes a recording's connections when the source ports it records come back: a network
/// link's client that restarts (JackTrip, zita-n2j, jack_netsource) takes its ports away and
/// registers them again under the same names, while the server stays.
///
/// Decided behaviour (issue 23): an input whose planned source *port* vanished (unregistered)
/// is connected to it again as soon as a port of the same full name is registered. The
/// recording goes on throughout (the input delivers silence while nothing is connected, and
/// the disconnection and the reconnection are both reported). Nothing else is touched: a
/// connection the user broke while the port stayed (qjackctl) is left broken, a port that
/// comes back under another name is not guessed at, and no glob is matched again (the inputs
/// are fixed for a run). Pure bookkeeping: the caller feeds it port registrations (names, on
/// the main thread) and makes the connections it returns (`JackClient.connect`); in a run,
/// `SourceReconnector` does.
public struct PortWatch: Sendable {
    /// What the caller does (or says) after a registration change.
    public enum Action: Equatable, Sendable {
        /// `source` went away while it fed `input`: say so; the input now records silence.
        case vanished(source: String, input: String)
        /// `source` is back: connect it to `input` again.
        case reconnect(source: String, input: String)
    }

    /// (source, input) by full name: what the run connected at its start.
    public let plan: [(source: String, input: String)]
    /// Sources that vanished and have not come back.
    public private(set) var missing: Set<String> = []

    public init(plan: [(source: String, input: String)]) {
        self.plan = plan
    }

    /// The connections of a `ConnectionPlan` that feed this client's inputs.
    public init(plan: ConnectionPlan, inputs: [String]) {
        let wanted = Set(inputs)
        self.init(plan: plan.pairs.filter { wanted.contains($0.1) }.map { (source: $0.0, input: $0.1) })
    }

    /// After ports were unregistered (libjack's notification cannot name a port that is
    /// gone): every planned source that `exists` no longer finds has vanished.
    public mutating func sourcesGone(exists: (String) -> Bool) -> [Action] {
        Array(Set(plan.map(\.source))).sorted().filter { !missing.contains($0) && !exists($0) }
            .flatMap { portChanged($0, registered: false) }
    }

    /// A port called `name` was registered; `isConnected(source, input)` says whether a
    /// planned connection holds now. A source that vanished is reconnected. One that had not
    /// been seen to vanish but whose planned connection no longer holds went and came back
    /// between two looks (a client that restarts within a pass of the main loop): it is told
    /// as both. One whose connections hold is left alone (a notification for a port already
    /// known, as a server may send while a client starts).
    public mutating func portRegistered(_ name: String, isConnected: (String, String) -> Bool) -> [Action] {
        if missing.contains(name) { return portChanged(name, registered: true) }
        let broken = plan.filter { $0.source == name && !isConnected($0.source, $0.input) }
        guard !broken.isEmpty else { return [] }
        return broken.map { Action.vanished(source: $0.source, input: $0.input) }
            + broken.map { Action.reconnect(source: $0.source, input: $0.input) }
    }

    /// Marks `name` as missing again without telling it (a reconnection that failed: the
    /// port went again before it could be connected); its next registration reconnects it.
    public mutating func stillMissing(_ name: String) {
        if plan.contains(where: { $0.source == name }) { missing.insert(name) }
    }

    /// A port called `name` was registered (`registered` true) or unregistered.
    public mutating func portChanged(_ name: String, registered: Bool) -> [Action] {
        let feeds = plan.filter { $0.source == name }
        guard !feeds.isEmpty else { return [] }
        if registered {
            guard missing.remove(name) != nil else { return [] }
            return feeds.map { .reconnect(source: $0.source, input: $0.input) }
        }
        guard missing.insert(name).inserted else { return [] }
        return feeds.map { .vanished(source: $0.source, input: $0.input) }
    }
}
