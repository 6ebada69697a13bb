/// Remakes a recording's connections when the source ports it records come back: a network
/// link's client that restarts (JackTrip, zita-n2j, jack_netsource) registers its ports
/// again under the same names while the server stays.
///
/// An input whose planned source port vanished is connected again as soon as a port of the
/// same full name is registered; the recording goes on, silent meanwhile. Nothing else is
/// touched: a connection the user broke stays broken, no port under another name is guessed
/// at, no glob is matched again. Pure bookkeeping: `SourceReconnector` feeds it registrations
/// and makes the connections it returns.
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

    /// A port called `name` was registered; `isConnected(source, input)` says whether a planned
    /// connection holds now. A vanished source is reconnected; one not seen to vanish whose
    /// connection no longer holds went and came back between two looks, and is told as both;
    /// one whose connections hold is left alone (a repeated notification).
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
