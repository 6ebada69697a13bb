import JackwaveHost
import JackwaveRunSupport

extension RunOptionsParser {
    /// Leaving jackwave armed: takes started by a level or the JACK transport, with pre-roll.
    static let takes = OptionSection<RunOptions>("Takes (leave jackwave armed)", [
        Option("--trigger", value: "LEVEL", needs: "--record",
               help: "arm: a take starts when any input's peak reaches LEVEL",
                     "(-40dB, or linear 0.01); takes go to FILE-001.wav, FILE-002.wav, …",
                     "or FILE-001-001.wav, … when --split, --reconnect or --osc may cut them") { o, s throws(UsageError) in
            o.takes.triggerLevel = try parseLevel(s.value(), option: "--trigger")
        },
        Option("--transport", needs: "--record",
               help: "arm: record while the JACK transport rolls, each roll a take") { $0.takes.followTransport = true },
        Option("--pre-roll", value: "SEC",
               help: "keep the last SEC seconds while armed: a take begins with them") { o, s throws(UsageError) in
            o.takes.preRollSeconds = try s.positiveNumber(upTo: maximumPreRollSeconds, what: "seconds")
        },
        Option("--stop-after", value: "SEC",
               help: "end a take SEC seconds after every input fell below the stop",
                     "level (or the transport stopped); default 2, or 0 with --transport") { o, s throws(UsageError) in
            o.takes.stopAfterSeconds = try s.number(in: 0...maximumSeconds, what: "seconds")
        },
        Option("--stop-level", value: "LEVEL", needs: "--trigger",
               help: "the level inputs must stay below to end a take",
                     "(default 6 dB under --trigger)") { o, s throws(UsageError) in
            o.takes.stopLevel = try parseLevel(s.value(), option: "--stop-level")
        },
        Option("--takes", value: "N",
               help: "end after N takes (default: until Ctrl-C)") { o, s throws(UsageError) in
            o.takes.maximumTakes = try s.integer(in: 1...999_999)
        },
    ])

    /// The longest `--pre-roll` the parser takes: an hour. Memory bounds it further, once the
    /// rate and the channels are known (`RunOptions.takeSettings(channels:serverRate:)`).
    static let maximumPreRollSeconds: Double = 3600
}
