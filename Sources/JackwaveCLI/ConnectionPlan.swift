import CJack
import Glibc
import JackwaveHost

/// Which connections to make once the client is active: explicit `--port`/`--to` matches,
/// else the first physical ports, else (`--manual`) none.
struct ConnectionPlan {
    /// (source, destination) pairs of full port names.
    let pairs: [(String, String)]
    /// Inputs with nothing planned for them (said once, so silence is no surprise).
    let unconnectedInputs: [String]

    init(options o: RunOptions, client: JackClient, inputs: [OpaquePointer], outputs: [OpaquePointer],
         sources: [String], destinations: [String]) {
        var pairs: [(String, String)] = []
        let inputNames = inputs.map(JackClient.fullName(of:))
        let outputNames = outputs.map(JackClient.fullName(of:))
        var unconnected: [String] = []
        if !o.manual {
            let from = !o.portPatterns.isEmpty ? sources
                : client.portNames(flags: JackPortFlags(JackPortIsPhysical.rawValue | JackPortIsOutput.rawValue))
            for (i, input) in inputNames.enumerated() {
                if i < from.count { pairs.append((from[i], input)) } else { unconnected.append(input) }
            }
            if !outputNames.isEmpty {
                let to = !o.toPatterns.isEmpty ? destinations
                    : Array(client.portNames(flags: JackPortFlags(JackPortIsPhysical.rawValue | JackPortIsInput.rawValue))
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
    func connect(_ client: JackClient) -> [String] {
        pairs.compactMap { source, destination in
            let result = client.connect(source: source, destination: destination)
            return result == 0 || result == EEXIST ? nil : "cannot connect \(source) -> \(destination)"
        }
    }
}
