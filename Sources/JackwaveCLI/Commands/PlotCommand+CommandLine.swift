import JackwaveHost
import JackwavePlot
import JackwaveRunSupport

extension PlotCommand {
    /// One of `plot`'s options.
    typealias Option = OptionDeclaration<Request>

    static let commandLine = CommandDeclaration<Request>(
        name: "jackwave plot",
        summary: "jackwave plot: draw a recording, a level stream or a MIDI file to a PNG or SVG picture.",
        usage: ["jackwave plot FILE -o OUT.png|svg [options]"],
        argument: file,
        sections: [OptionSection("Options", options + [.helpOption])],
        footer: [
            "Exit codes: 0 drawn, 1 the picture could not be written, 2 bad usage or bad input",
            "(and then no picture is created).",
        ])

    /// The recording, level stream or MIDI file to draw.
    static let file = ArgumentDeclaration<Request>(
        "FILE", kind: .plotInput, help: "a recording, a level stream (.csv/.jsonl from --levels),",
        "or a MIDI file (.mid: its notes as a piano roll)") { r, word throws(UsageError) in
        if r.input != nil { throw UsageError("plot draws one FILE; unexpected '\(word)'") }
        r.input = word
    }

    /// What to draw and how; also listed in `jackwave --help`, with the main command's.
    static let options: [Option] = [
        Option("-o", "--output", value: "OUT", kind: .picture, help: "the picture: .png or .svg") { r, s throws(UsageError) in
            r.output = try s.nonEmptyValue()
        },
        Option("--width", value: "PX", help: "picture width (default 1200)") { r, s throws(UsageError) in
            r.options.width = try s.integer(in: PlotOptions.widthRange)
        },
        Option("--height", value: "PX",
               help: "picture height (default: 280 px per lane for 1–2 channels)") { r, s throws(UsageError) in
            r.options.height = try s.integer(in: PlotOptions.heightRange)
        },
        Option("--start", value: "SEC",
               help: "draw only from SEC seconds into the recording (default 0)") { r, s throws(UsageError) in
            r.options.start = try s.number(in: 0...1e9, what: "the start in seconds")
        },
        Option("--end", value: "SEC", help: "draw only up to SEC seconds (default: the end)") { r, s throws(UsageError) in
            r.options.end = try s.number(in: 0...1e9, what: "the end in seconds")
        },
        Option("--db", help: "dBFS amplitude scale (-60 dB at the centre line)") { $0.options.decibels = true },
        Option("--loudness", help: "a recording's loudness (momentary, short-term, integrated)",
               "in a lane under its waveform; a level stream with loudness columns draws it always") {
            $0.options.loudness = true
        },
        Option("--midi", help: "the notes of the MIDI file beside a recording (FILE's name with",
               ".mid) as a piano roll in a lane under its waveform") {
            $0.options.midi = true
        },
        Option("--force", help: "overwrite OUT") { $0.force = true },
    ]

    /// `plot`'s section of `jackwave --help`.
    static var mainHelpSection: [String] {
        HelpText.section("Plot (jackwave plot FILE -o OUT)", options, argument: file)
    }

    /// The options, or the first thing wrong with them.
    static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        let r = try commandLine.parse(arguments, into: Request()).options
        if let start = r.options.start, let end = r.options.end, end <= start {
            throw UsageError("--end \(end.plainText) must be after --start \(start.plainText)")
        }
        return r
    }
}
