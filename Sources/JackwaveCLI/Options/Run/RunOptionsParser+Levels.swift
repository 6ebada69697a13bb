import JackwaveLevelStream

extension RunOptionsParser {
    /// The level stream, the live meter, and the picture drawn after a recording.
    static let levels = OptionSection<RunOptions>("Levels", [
        Option("--levels", value: "FILE|-", kind: .levelStream,
               help: "per-block peak levels as CSV (.csv, -) or JSON Lines (.jsonl)") { o, s throws(UsageError) in
            o.levelsPath = try s.nonEmptyValue()
        },
        Option("--levels-format", value: "F", kind: .levelStreamFormat, needs: "--levels", help: "csv or jsonl") { o, s throws(UsageError) in
            o.levelsFormat = try s.choice(LevelStreamFormat.init(rawValue:), expected: "csv or jsonl")
        },
        Option("--level-interval", value: "MS", needs: "--levels",
               help: "one row per MS instead of per JACK period (maximum of peaks)") { o, s throws(UsageError) in
            o.levelIntervalMilliseconds = try s.positiveNumber(upTo: 60_000, what: "milliseconds")
        },
        Option("--meter", help: "live meter on stderr (default: when stderr is a terminal)") { $0.meter = true },
        Option("--no-meter", help: "no live meter, even on a terminal") { $0.meter = false },
        Option("--plot", value: "OUT", kind: .picture, needs: "--record",
               help: "after --record, draw the recording to OUT.png or OUT.svg") { o, s throws(UsageError) in
            o.plotPath = try s.nonEmptyValue()
        },
    ])
}
