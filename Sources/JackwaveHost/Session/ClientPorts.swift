import JackwaveEngine
import JackwaveRunSupport
import JackwaveVocabulary

/// One client's ports and the connections planned for them: registered, and the patterns
/// resolved, on an open client, before anything is created on disk.
struct ClientPorts {
    /// The source ports the `--port` patterns matched (none with `--manual` or without `--port`).
    let sources: [String]
    let inputs: [JackPort]
    let outputs: [JackPort]
    let plan: ConnectionPlan
    /// The MIDI inputs (`midi_1 …`), then the control input (`mmc`, with `--mmc`).
    let midiInputs: [JackPort]
    /// Their connections: the `--midi-port` patterns' matches in order, else the physical
    /// MIDI capture ports; the control input to `--mmc`'s port.
    let midiPlan: ConnectionPlan
    /// What each recorded MIDI input's track is named after: its source, or itself.
    let midiTrackNames: [String]
    /// The LTC input (`ltc`, with `--ltc`) and its connection to the port given.
    let ltcInput: JackPort?
    let ltcPlan: ConnectionPlan
    /// What each input records, for the files' track list: its source, or itself.
    var trackNames: [String] {
        inputs.enumerated().map { i, port in i < sources.count ? sources[i] : port.fullName }
    }

    /// Registers `out_1…` (when a tone plays) and `in_1…` on `client`, and plans their
    /// connections as the options ask. `channels` is the run's input count once known (a
    /// reconnect keeps it, whatever the patterns match then). Throws a usage error for
    /// patterns that match nothing or too much, a `JackError` when the server refuses a port.
    init(_ o: RunOptions, client: JackClient, channels known: Int?) throws(SessionError) {
        do {
            // Outputs first, so that `--port jackwave:out_1` finds them.
            outputs = try o.playsTone
                ? (1...o.tone.outputs).map { i throws(JackError) in try client.registerAudioPort(shortName: "out_\(i)", direction: .output) }
                : []
            sources = o.jack.manual || o.jack.portPatterns.isEmpty ? [] : try PortPatterns.resolve(
                o.jack.portPatterns, among: client.portNames(direction: .output), what: "source")
            let channels = known ?? (o.wantsInputs ? o.jack.channels ?? (sources.isEmpty ? 2 : sources.count) : 0)
            if sources.count > channels {
                throw UsageError("\(sources.count) source ports match but jackwave has \(channels) inputs (\(setting: .channels) \(channels))")
            }
            let destinations = o.jack.manual || o.tone.toPatterns.isEmpty ? [] : try PortPatterns.resolve(
                o.tone.toPatterns, among: client.portNames(direction: .input), what: "destination")
            inputs = try (0..<channels).map { $0 + 1 }.map { i throws(JackError) in
                try client.registerAudioPort(shortName: "in_\(i)", direction: .input)
            }
            plan = ConnectionPlan(client: client, inputs: inputs, outputs: outputs, manual: o.jack.manual,
                                  sources: o.jack.portPatterns.isEmpty ? nil : sources,
                                  destinations: o.tone.toPatterns.isEmpty ? nil : destinations)
            (midiInputs, midiPlan, midiTrackNames) = try Self.midi(o, client: client)
            (ltcInput, ltcPlan) = try Self.ltc(o, client: client)
        } catch let error as UsageError {
            throw .usage(error.message)
        } catch let error as JackError {
            throw .runtime(Phrase(verbatim: error.message))
        } catch {
            throw .runtime(Phrase(verbatim: "\(error)"))
        }
    }
}

extension ClientPorts {
    /// Registers the LTC input and plans its connection to `--ltc`'s port (a name or a
    /// glob that must match exactly one audio output).
    private static func ltc(_ o: RunOptions, client: JackClient) throws -> (JackPort?, ConnectionPlan) {
        guard let pattern = o.timecode.ltcPort else { return (nil, ConnectionPlan(pairs: [])) }
        let matches = try PortPatterns.resolve([pattern], among: client.portNames(direction: .output), what: "LTC source")
        guard matches.count == 1, let source = matches.first else {
            throw UsageError("\(setting: .ltc) \(pattern) matches \(matches.count) ports; it must name one")
        }
        let port = try client.registerAudioPort(shortName: "ltc", direction: .input)
        return (port, ConnectionPlan(pairs: [(source, port.fullName)]))
    }

    /// Registers the MIDI inputs and plans their connections (see `midiPlan`).
    private static func midi(_ o: RunOptions, client: JackClient) throws -> ([JackPort], ConnectionPlan, [String]) {
        guard o.midi.inputs > 0 || o.midi.controlPort != nil else { return ([], ConnectionPlan(pairs: []), []) }
        let available = client.midiPortNames(direction: .output)
        let sources = o.jack.manual ? [] : o.midi.portPatterns.isEmpty
            ? client.midiPortNames(direction: .output, physicalOnly: true)
            : try PortPatterns.resolve(o.midi.portPatterns, among: available, what: "MIDI source")
        if !o.midi.portPatterns.isEmpty && sources.count > o.midi.inputs {
            throw UsageError("\(sources.count) MIDI source ports match but jackwave has \(o.midi.inputs) MIDI inputs (\(setting: .midi) \(o.midi.inputs))")
        }
        var ports: [JackPort] = []
        for i in 0..<o.midi.inputs { ports.append(try client.registerMidiPort(shortName: "midi_\(i + 1)", direction: .input)) }
        var pairs: [(String, String)] = []
        var names: [String] = []
        var unconnected: [String] = []
        for (i, port) in ports.enumerated() {
            if i < sources.count { pairs.append((sources[i], port.fullName)) } else if !o.jack.manual { unconnected.append(port.fullName) }
            names.append(i < sources.count ? sources[i] : port.fullName)
        }
        if let control = o.midi.controlPort {
            guard let source = try PortPatterns.resolve([control], among: available, what: "MMC source").first else {
                throw UsageError("\(setting: .mmc) \(control): no MIDI port of that name")
            }
            let port = try client.registerMidiPort(shortName: "mmc", direction: .input)
            ports.append(port)
            pairs.append((source, port.fullName))
        }
        return (ports, ConnectionPlan(pairs: pairs, unconnectedInputs: unconnected), names)
    }
}

/// Why a run could not start or go on: bad usage (one line, exit 2, nothing touched) or a
/// runtime failure (one line, exit 1).
public enum SessionError: Error, Equatable {
    case usage(Phrase)
    case runtime(Phrase)

    /// The line to say.
    public var message: Phrase {
        switch self {
        case let .usage(m), let .runtime(m): m
        }
    }

    /// 2 for bad usage, 1 for a runtime failure.
    public var exitCode: Int32 {
        if case .usage = self { 2 } else { 1 }
    }

    /// The same failure after the run has started: no longer the user's to fix (exit 1).
    var atRuntime: SessionError { .runtime(message) }
}
