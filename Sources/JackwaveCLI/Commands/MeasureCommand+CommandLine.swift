import JackwaveHost
import JackwaveMeasure
import JackwavePlot
import JackwaveRunSupport

extension MeasureCommand {
    /// One of `measure`'s options.
    typealias Option = OptionDeclaration<Options>

    static let commandLine = CommandDeclaration<Options>(
        name: "jackwave measure",
        summary: "jackwave measure: latency, response, distortion, noise and crosstalk from its outputs back to its inputs.",
        usage: [
            "jackwave measure [-c N] [-t PORT]... [-p PORT]... [--quick] [--json FILE|-] [--plot OUT.png|svg]",
        ],
        argument: nil,
        sections: [OptionSection("Ports", ports), OptionSection("Measurement", measurement),
                   OptionSection("Output", output + [.helpOption])],
        footer: [
            "Output N plays an exponential sweep (each in turn), then a tone on every output; input N",
            "records what comes back. The latency is in frames with its fraction, beside what JACK",
            "declares for the ports (capture + playback). About 9 s at 48 kHz for 2 channels, 4.5 s",
            "with --quick (less with a smaller --max-latency). Exit codes: 0 measured, 1 a runtime",
            "failure or a path that gave nothing back, 2 bad usage (and then nothing is played).",
        ])

    static let ports: [Option] = [
        Option("-c", "--channels", value: "N",
               help: "output/input pairs (default: as many as -p or -t name, else 2)") { o, s throws(UsageError) in
            o.channels = try s.integer(in: 1...maximumChannels)
        },
        Option("-t", "--to", value: "PORT", kind: .port,
               help: "where output N goes (repeatable; no default: the sweep is loud, and",
               "jackwave never plays it into the speakers unasked; needed unless -p jackwave:out_N)") { o, s throws(UsageError) in
            o.toPatterns.append(try s.nonEmptyValue())
        },
        Option("-p", "--port", value: "PORT", kind: .port,
               help: "what input N records (repeatable; default: the first physical capture",
               "ports); jackwave:out_N is the direct patch, recorded inside jackwave") { o, s throws(UsageError) in
            o.portPatterns.append(try s.nonEmptyValue())
        },
        Option("-n", "--name", value: "NAME", help: "JACK client name (default jackwave)") { o, s throws(UsageError) in
            o.clientName = try s.nonEmptyValue()
        },
        Option("-s", "--server", value: "NAME", help: "JACK server name (default: $JACK_DEFAULT_SERVER)") { o, s throws(UsageError) in
            o.server = try s.nonEmptyValue()
        },
    ]

    static let measurement: [Option] = [
        Option("--quick", help: "shorter sweeps and tones (harmonics from about 150 Hz)") { $0.settings.quick = true },
        Option("--level", value: "DBFS",
               help: "the sweep's and the THD+N tone's peak level (default -6; -60 to 0)") { o, s throws(UsageError) in
            o.settings.levelDBFS = try parseLevel(try s.value(), option: s.current)
        },
        Option("--frequency", value: "HZ",
               help: "the THD+N and noise tones' frequency (default 997)") { o, s throws(UsageError) in
            o.settings.toneFrequency = try s.number(in: 20...96_000, what: "the frequency in Hz")
        },
        Option("--max-latency", value: "SEC",
               help: "the longest round trip allowed for (default 0.5 s): the silence after",
               "each signal, so a smaller one makes the run shorter") { o, s throws(UsageError) in
            o.settings.maximumLatencySeconds = try s.number(in: 0.01...10, what: "the latency in seconds")
        },
    ]

    static let output: [Option] = [
        Option("--json", value: "FILE", kind: .file(extensions: ["json"]),
               help: "every figure as JSON (- for stdout, which then holds only the JSON)") { o, s throws(UsageError) in
            o.jsonPath = try s.nonEmptyValue()
        },
        Option("--plot", value: "OUT", kind: .picture,
               help: "draw the response, the distortion and the impulse (.png or .svg)") { o, s throws(UsageError) in
            o.plotPath = try s.nonEmptyValue()
        },
        Option("--force", help: "overwrite the --json and --plot files") { $0.force = true },
    ]

    /// More pairs than this take minutes to sweep one by one: a typo more likely than a wish.
    static let maximumChannels = 32

    /// `-6`, `-6dB` or `-6dbfs`: a level in dBFS, from −60 to 0.
    static func parseLevel(_ text: String, option: String) throws(UsageError) -> Double {
        var number = Substring(text.lowercased())
        for suffix in ["dbfs", "db"] where number.hasSuffix(suffix) {
            number = number.dropLast(suffix.count)
            break
        }
        guard let level = Double(number), level.isFinite else {
            throw UsageError("\(option): '\(text)' is not a level in dBFS (use -6 or -6dB)")
        }
        guard (-60...0).contains(level) else { throw UsageError("\(option) must be between -60 and 0 dBFS, not \(text)") }
        return level
    }

    /// The options, or the first thing wrong with them.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let o = try commandLine.parse(arguments, into: Options()).options
        if let json = o.jsonPath, let plot = o.plotPath, json != "-", OutputPath.canonical(json) == OutputPath.canonical(plot) {
            throw UsageError("--json and --plot name the same file")
        }
        if let plot = o.plotPath, PlotFormat(path: plot) == nil {
            throw UsageError("--plot \(plot): unknown extension (use .png or .svg)")
        }
        return o
    }
}
