import JackwaveHost
import JackwaveLevelStream
import JackwaveRunSupport

extension RunOptionsParser {
    /// `--target` bounds: −60 LUFS is near the gate's silence, 0 above anything playable.
    static let targetRange: ClosedRange<Double> = -60...0

    /// The level stream, the live meter, and the picture drawn after a recording.
    static let levels = OptionSection<RunOptions>("Levels", [
        Option("--levels", value: "FILE|-", kind: .levelStream,
               help: "per-block peak levels as CSV (.csv, -) or JSON Lines (.jsonl)") { o, s throws(UsageError) in
            o.levels.path = try s.nonEmptyValue()
        },
        Option("--levels-format", value: "F", kind: .levelStreamFormat, needs: "--levels", help: "csv or jsonl") { o, s throws(UsageError) in
            o.levels.format = try s.choice(LevelStreamFormat.init(rawValue:), expected: "csv or jsonl")
        },
        Option("--level-interval", value: "MS", needs: "--levels",
               help: "one row per MS instead of per JACK period (maximum of peaks)") { o, s throws(UsageError) in
            o.levels.intervalMilliseconds = try s.positiveNumber(upTo: 60_000, what: "milliseconds")
        },
        Option("--meter", help: "live meter on stderr (default: when stderr is a terminal)") { $0.levels.meter = true },
        Option("--no-meter", help: "no live meter, even on a terminal") { $0.levels.meter = false },
        Option("--loudness", help: "live EBU R 128 loudness: M, S, I, LRA and true peak in the meter,",
               "and lufs_m,lufs_s,lufs_i,lra,dbtp_<port> columns in --levels") { $0.levels.loudness = true },
        Option("--target", value: "LUFS", needs: "--loudness",
               help: "the meter's target mark (default -23; -14 or -16 for streaming)") { o, s throws(UsageError) in
            o.levels.targetLoudness = try s.number(in: targetRange, what: "LUFS")
        },
        Option("--plot", value: "OUT", kind: .picture, needs: "--record",
               help: "draw each file recorded, once it closes, to OUT.png or OUT.svg,",
                     "numbered as the files are (OUT-003-002.png beside FILE-003-002.wav)") { o, s throws(UsageError) in
            o.recording.plotPath = try s.nonEmptyValue()
        },
    ])
}
