import JackwaveHost
import JackwaveMIDI
import JackwaveRunSupport

extension RunOptionsParser {
    /// MIDI inputs recorded beside the audio, and MIDI Machine Control.
    static let midi = OptionSection<RunOptions>("MIDI", [
        Option("--midi", value: "N",
               help: "MIDI input ports midi_1 … midi_N; with --record take.wav their events",
                     "go to take.mid beside it, each at its exact frame (--record take.mid:",
                     "MIDI alone)") { o, s throws(UsageError) in
            o.midi.inputs = try s.integer(in: 1...maximumMidiInputs)
        },
        Option("--midi-port", value: "PATTERN", kind: .port, needs: "--midi",
               help: "MIDI source port(s) to connect, in order (name or glob; repeatable;",
                     "default: the physical MIDI capture ports)") { o, s throws(UsageError) in
            o.midi.portPatterns.append(try s.nonEmptyValue())
        },
        Option("--mmc", value: "PORT", kind: .port, needs: "--record",
               help: "arm: MIDI Machine Control from PORT starts a take (RECORD STROBE)",
                     "and ends it (RECORD EXIT, STOP), each at its frame") { o, s throws(UsageError) in
            o.midi.controlPort = try s.nonEmptyValue()
        },
        Option("--midi-marker", value: "NOTE|ccN", needs: "--mmc",
               help: "a note (0–127) or a controller pressed (cc64) on the --mmc port",
                     "drops a marker, as the m key does") { o, s throws(UsageError) in
            o.midi.marker = try parseMidiMarker(s.value())
        },
    ])

    /// The most MIDI inputs: a port each, and a track each in every file.
    static let maximumMidiInputs = 64

    /// `60` (a note) or `cc64` (a controller).
    static func parseMidiMarker(_ text: String) throws(UsageError) -> MidiMarkerTrigger {
        let lower = text.lowercased()
        if lower.hasPrefix("cc"), let number = UInt8(lower.dropFirst(2)), number < 120 { return .controller(number) }
        if let key = UInt8(lower), key < 128 { return .note(key) }
        throw UsageError("--midi-marker: '\(text)' is neither a note (0–127) nor a controller (cc0–cc119)")
    }
}
