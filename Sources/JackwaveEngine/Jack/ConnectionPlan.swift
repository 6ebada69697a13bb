import Glibc

/// Which connections to make once the client is active: the sources and destinations a
/// user chose, else the first physical ports, else (manual wiring) none.
public struct ConnectionPlan {
    /// (source, destination) pairs of full port names.
    public let pairs: [(String, String)]
    /// Inputs with nothing planned for them (said once, so silence is no surprise).
    public let unconnectedInputs: [String]

    /// `sources` feed the inputs in order, `destinations` take the outputs; nil means the
    /// server's first physical capture (or playback) ports. With `manual`, nothing is
    /// connected and nothing is said: the user wires the ports.
    public init(client: JackClient, inputs: [JackPort], outputs: [JackPort], manual: Bool,
                sources: [String]?, destinations: [String]?) {
        var pairs: [(String, String)] = []
        var unconnected: [String] = []
        if !manual {
            let inputNames = inputs.map(\.fullName)
            let outputNames = outputs.map(\.fullName)
            let from = sources ?? client.portNames(direction: .output, physicalOnly: true)
            for (i, input) in inputNames.enumerated() {
                if i < from.count { pairs.append((from[i], input)) } else { unconnected.append(input) }
            }
            if !outputNames.isEmpty {
                let to = destinations ?? Array(client.portNames(direction: .input, physicalOnly: true)
                    .prefix(outputNames.count))
                // More destinations than outputs: the outputs take turns (the same tone).
                for (i, destination) in to.enumerated() {
                    pairs.append((outputNames[i % outputNames.count], destination))
                }
            }
        }
        self.pairs = pairs
        unconnectedInputs = unconnected
    }

    /// Makes the connections; returns one line per connection that failed.
    public func connect(_ client: JackClient) -> [String] {
        pairs.compactMap { source, destination in
            let result = client.connect(source: source, destination: destination)
            return result == 0 || result == EEXIST ? nil : "cannot connect \(source) -> \(destination)"
        }
    }
}
