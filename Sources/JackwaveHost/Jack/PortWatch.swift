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
/// the main thread) and makes the connections it returns (`JackClient.connect`).
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
