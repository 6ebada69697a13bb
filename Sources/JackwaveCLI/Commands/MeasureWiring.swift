import JackwaveEngine
import JackwaveHost
import JackwaveRunSupport

/// Which ports a measurement plays into and records from, chosen as the main command
/// chooses them, and its registered ports and connection plan.
///
/// Channel N is the path from `out_N`, through whatever `-t` names, to whatever `-p` names
/// (or the N-th physical capture port), into `in_N`. There is no default for `-t`: the
/// sweep is loud (−6 dBFS), and the first physical playback ports are usually speakers, so
/// a channel that does not record jackwave's own output must say where it plays.
/// A channel whose source is one of jackwave's own outputs (`-p jackwave:out_1`, the direct
/// patch) is fed inside the callback and connects its output nowhere by default: a sweep is
/// not sent to a loudspeaker unless asked for.
struct MeasureWiring {
    let channels: Int
    let inputs: [JackPort]
    let outputs: [JackPort]
    let plan: ConnectionPlan
    /// Each channel's ports by name, kept: the report is made after the client is closed.
    let ports: [MeasureReport.Ports]
    /// What will be connected, for the user.
    let lines: [String]

    init(_ o: MeasureCommand.Options, client: JackClient) throws {
        // Sources may name the outputs about to be registered: they are matched among the
        // server's output ports and `NAME:out_1 … out_K`, K the number of -p patterns.
        let own = (1...Swift.max(1, o.portPatterns.count)).map { "\(client.name):out_\($0)" }
        let existing = client.portNames(direction: .output)
        let sources = o.portPatterns.isEmpty ? nil
            : try PortPatterns.resolve(o.portPatterns, among: existing + own.filter { !existing.contains($0) }, what: "source")
        let destinations = o.toPatterns.isEmpty ? nil
            : try PortPatterns.resolve(o.toPatterns, among: client.portNames(direction: .input), what: "destination")
        let channels = o.channels ?? sources?.count ?? destinations?.count ?? 2
        if let sources, sources.count != channels {
            throw UsageError("\(sources.count) source port\(sources.count == 1 ? "" : "s") match\(sources.count == 1 ? "es" : "") --port for \(channels) channel\(channels == 1 ? "" : "s"): give one per channel")
        }
        if let destinations, destinations.count != channels {
            throw UsageError("\(destinations.count) destination port\(destinations.count == 1 ? "" : "s") match\(destinations.count == 1 ? "es" : "") --to for \(channels) channel\(channels == 1 ? "" : "s"): give one per channel")
        }
        let physicalCapture = client.portNames(direction: .output, physicalOnly: true)
        let from = sources ?? Array(physicalCapture.prefix(channels))
        guard from.count == channels else {
            throw UsageError("the server has \(physicalCapture.count) physical capture port\(physicalCapture.count == 1 ? "" : "s") for \(channels) channels: name what to record with -p")
        }
        let ownNames = (1...channels).map { "\(client.name):out_\($0)" }
        outputs = try (1...channels).map { i throws(JackError) in try client.registerAudioPort(shortName: "out_\(i)", direction: .output) }
        inputs = try (1...channels).map { i throws(JackError) in try client.registerAudioPort(shortName: "in_\(i)", direction: .input) }
        var pairs: [(String, String)] = []
        var lines: [String] = []
        var named: [MeasureReport.Ports] = []
        for c in 0..<channels {
            let output = outputs[c].fullName, input = inputs[c].fullName
            let fedInside = ownNames.contains(from[c])
            let to = destinations?[c]
            guard to != nil || fedInside else {
                throw UsageError("channel \(c + 1) plays its sweep nowhere: name where with -t PORT (jackwave never plays a -6 dBFS sweep into the speakers unasked)")
            }
            if let to { pairs.append((output, to)) }
            pairs.append((from[c], input))
            named.append(MeasureReport.Ports(output: output, destination: to, source: from[c], input: input))
            lines.append("channel \(c + 1): \(output) -> \(to ?? (fedInside ? "(recorded inside jackwave)" : "nowhere")) … \(from[c]) -> \(input)")
        }
        self.channels = channels
        ports = named
        plan = ConnectionPlan(pairs: pairs)
        self.lines = lines
    }
}
