import Foundation
import JackwaveLevelStream
import JackwaveSoundFiles

/// Parses the main command's options (everything but the `plot` and `levels` subcommands).
public enum RunOptionsParser {
    /// Channel and output counts above this are refused: JACK itself tops out near here,
    /// and a typo (`-c 20000`) should fail fast rather than allocate a huge ring.
    public static let maximumPorts = 1024
    /// `--rate` bounds: below 1 kHz is no audio rate anyone records at (a typo for kHz),
    /// and 768 kHz is the highest rate JACK and libsndfile's formats are used at.
    public static let rateRange = 1000...768_000

    /// The options, or the first thing wrong with them.
    public static func parse(_ arguments: [String]) throws(UsageError) -> RunOptions {
        var o = RunOptions()
        var s = ArgumentScanner(arguments)
        var given: Set<String> = []
        while let option = s.next() {
            given.insert(option)
            switch option {
            case "--record": o.recordPath = try s.nonEmptyValue()
            case "-c", "--channels": o.channels = try s.integer(in: 1...maximumPorts)
            case "-p", "--port": o.portPatterns.append(try s.nonEmptyValue())
            case "--manual": try s.noValue(); o.manual = true
            case "-d", "--duration": o.duration = try s.positiveNumber(upTo: (7 * 24 * 3600), what: "seconds")
            case "--bits":
                o.depth = try s.choice(SampleDepth.init(rawValue:), expected: "16, 24, 32 or float")
            case "--rate": o.fileRate = try s.integer(in: rateRange)
            case "--format":
                o.format = try s.choice(SoundFormat.named,
                                        expected: "one of " + SoundFormat.all.map(\.name).joined(separator: ", "))
            case "--no-dither": try s.noValue(); o.dither = false
            case "--split": o.splitSeconds = try s.positiveNumber(upTo: (7 * 24 * 3600), what: "seconds")
            case "--print-start": try s.noValue(); o.printStart = true
            case "--formats": try s.noValue(); o.listFormats = true
            case "-n", "--name": o.clientName = try s.nonEmptyValue()
            case "-s", "--server": o.server = try s.nonEmptyValue()
            case "--force": try s.noValue(); o.force = true
            case "--buffer": o.bufferSeconds = try s.positiveNumber(upTo: 600, what: "seconds")
            case "--tone": o.toneFrequency = try s.positiveNumber(upTo: 1_000_000, what: "the frequency in Hz")
            case "--outputs": o.outputs = try s.integer(in: 1...maximumPorts)
            case "-t", "--to": o.toPatterns.append(try s.nonEmptyValue())
            case "--volume": o.volume = try parseVolume(s.value())
            case "--fade": o.fadeMilliseconds = try s.number(in: 0...10_000, what: "milliseconds")
            case "--levels": o.levelsPath = try s.nonEmptyValue()
            case "--levels-format":
                o.levelsFormat = try s.choice(LevelStreamFormat.init(rawValue:), expected: "csv or jsonl")
            case "--level-interval": o.levelIntervalMilliseconds = try s.positiveNumber(upTo: 60_000, what: "milliseconds")
            case "--meter": try s.noValue(); o.meter = true
            case "--no-meter": try s.noValue(); o.meter = false
            case "--plot": o.plotPath = try s.nonEmptyValue()
            default:
                if option.hasPrefix("-") { throw UsageError("unknown option \(option) (see jackwave --help)") }
                throw UsageError("unexpected argument '\(option)' (see jackwave --help)")
            }
        }
        if o.listFormats { return o }
        try checkCombinations(o)
        // Options that only mean something with another: refuse rather than ignore them.
        for (option, needs, present) in [("--outputs", "--tone", o.playsTone), ("--volume", "--tone", o.playsTone),
                                         ("--fade", "--tone", o.playsTone),
                                         ("--levels-format", "--levels", o.levelsPath != nil),
                                         ("--level-interval", "--levels", o.levelsPath != nil)]
        where given.contains(option) && !present {
            throw UsageError("\(option) needs \(needs)")
        }
        return o
    }

    /// `0.5` (linear) or `-6dB` (dBFS); refuses anything above full scale.
    public static func parseVolume(_ text: String) throws(UsageError) -> Float {
        let lower = text.lowercased()
        let linear: Double
        if lower.hasSuffix("db") {
            guard let db = Double(lower.dropLast(2).trimmingCharacters(in: .whitespaces)), db.isFinite else {
                throw UsageError("--volume: '\(text)' is not a level (use 0.5 or -6dB)")
            }
            guard db <= 0 else { throw UsageError("--volume: \(text) is above 0 dBFS") }
            linear = pow(10, db / 20)
        } else {
            guard let v = Double(text), v.isFinite else {
                throw UsageError("--volume: '\(text)' is not a level (use 0.5 or -6dB)")
            }
            guard v >= 0 && v <= 1 else { throw UsageError("--volume must be between 0 and 1 (or at most 0dB), not \(text)") }
            linear = v
        }
        return Float(linear)
    }

    private static func checkCombinations(_ o: RunOptions) throws(UsageError) {
        if o.manual && !o.portPatterns.isEmpty { throw UsageError("--manual and --port exclude each other") }
        if o.manual && !o.toPatterns.isEmpty { throw UsageError("--manual and --to exclude each other") }
        if !o.records && o.depth != nil { throw UsageError("--bits needs --record") }
        if !o.records && o.plotPath != nil { throw UsageError("--plot needs --record") }
        if !o.records && o.fileRate != nil { throw UsageError("--rate needs --record") }
        if !o.records && o.format != nil { throw UsageError("--format needs --record") }
        if !o.records && !o.dither { throw UsageError("--no-dither needs --record") }
        if !o.records && o.splitSeconds != nil { throw UsageError("--split needs --record") }
        if o.splitSeconds != nil && o.plotPath != nil { throw UsageError("--plot and --split exclude each other (plot a piece afterwards)") }
        if !o.playsTone && !o.toPatterns.isEmpty { throw UsageError("--to needs --tone") }
    }
}
