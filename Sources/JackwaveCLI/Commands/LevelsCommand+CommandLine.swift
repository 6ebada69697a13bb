import JackwaveHost
import JackwaveLevelStream
import JackwaveRunSupport

extension LevelsCommand {
    /// One of `levels`' options.
    typealias Option = OptionDeclaration<Options>

    static let commandLine = CommandDeclaration<Options>(
        name: "jackwave levels",
        summary: "jackwave levels: a sound file's level stream (per-block peaks), computed offline.",
        usage: [
            "jackwave levels FILE [--block N] [--level-interval MS] [-o OUT|-]",
            "                [--levels-format csv|jsonl] [--force]",
        ],
        argument: file,
        sections: [OptionSection("Options", options + [.helpOption])],
        footer: [
            "Each row counts the dropouts that begin in it (exact zeros or a repeated block",
            "where the signal was: see jackwave's docs on recording across machines). With",
            "--block equal to a recording's JACK period, the stream is byte for byte the",
            "recording's live --levels. Exit codes: 0 done, 1 the output could not be written,",
            "2 bad usage or a FILE that cannot be read (and then no output is created).",
        ])

    /// The sound file to read.
    static let file = ArgumentDeclaration<Options>(
        "FILE", kind: .soundFile, help: "a sound file libsndfile reads (.wav, .flac, .ogg, ...)") { o, word throws(UsageError) in
        if word.isEmpty { throw whichFile }
        if !o.input.isEmpty { throw UsageError("levels: one input file only, not also '\(word)'") }
        o.input = word
    }

    static let options: [Option] = [
        Option("--block", value: "N",
               help: "frames per block, as the JACK period (default \(defaultBlock))") { o, s throws(UsageError) in
            o.block = try s.integer(in: 1...maximumBlock)
        },
        Option("--level-interval", value: "MS",
               help: "one row per MS of frames (maximum of the block peaks)") { o, s throws(UsageError) in
            o.intervalMilliseconds = try s.positiveNumber(upTo: 60_000, what: "milliseconds")
        },
        Option("-o", "--output", value: "OUT", kind: .levelStream,
               help: "write to OUT (default: stdout; .jsonl/.ndjson mean JSON Lines)") { o, s throws(UsageError) in
            o.output = try s.nonEmptyValue()
        },
        Option("--levels-format", value: "F", kind: .levelStreamFormat, help: "csv or jsonl") { o, s throws(UsageError) in
            o.format = try s.choice(LevelStreamFormat.init(rawValue:), expected: "csv or jsonl")
        },
        Option("--force", help: "overwrite OUT") { $0.force = true },
    ]

    /// A missing (or empty) FILE.
    static let whichFile = UsageError("levels: which file? (jackwave levels FILE [-o OUT])")

    /// The options, or the first thing wrong with them.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let o = try commandLine.parse(arguments, into: Options()).options
        if o.input.isEmpty { throw whichFile }
        return o
    }
}
