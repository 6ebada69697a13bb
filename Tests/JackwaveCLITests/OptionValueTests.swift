@testable import JackwaveCLI
import Testing

/// Each kind of value, and each rule between options, fails with its own words whatever
/// option it belongs to.
@Suite("Option values")
struct OptionValueTests {
    static let refusals: [Refusal] = [
        Refusal("a flag given a value", ["--manual=yes"], "--manual takes no value"),
        Refusal("a flag given a value", .plot, ["a.wav", "--db=1"], "--db takes no value"),
        Refusal("a value missing", ["--record"], "--record needs a value"),
        Refusal("a value missing", .levels, ["a.wav", "-o"], "-o needs a value"),
        Refusal("non-empty text", ["--record="], "--record needs a non-empty value"),
        Refusal("non-empty text", ["-n", ""], "-n needs a non-empty value"),
        Refusal("non-empty text", .plot, ["a.wav", "--output="], "--output needs a non-empty value"),
        Refusal("non-empty text", .levels, ["a.wav", "-o", ""], "-o needs a non-empty value"),
        Refusal("a whole number", ["-c", "two"], "-c: 'two' is not a whole number"),
        Refusal("a whole number", ["--rate", "44.1"], "--rate: '44.1' is not a whole number"),
        Refusal("a whole number in range", ["--channels", "0"], "--channels must be between 1 and 1024, not 0"),
        Refusal("a whole number in range", .plot, ["a.wav", "--width", "10"], "--width must be between 200 and 16384, not 10"),
        Refusal("a whole number in range", .levels, ["a.wav", "--block", "0"], "--block must be between 1 and 1048576, not 0"),
        Refusal("a number", ["--tone", "440", "--fade", "x"], "--fade: 'x' is not a number"),
        Refusal("a finite number", ["--tone", "nan"], "--tone: 'nan' is not a finite number"),
        Refusal("a finite number", ["--tone", "-inf"], "--tone: '-inf' is not a finite number"),
        Refusal("a number in range", ["--tone", "440", "--fade", "-5"], "--fade: milliseconds must be between 0 and 10000, not -5"),
        Refusal("a number in range", .plot, ["a.wav", "--start", "-1"], "--start: the start in seconds must be between 0 and 1000000000, not -1"),
        Refusal("a positive number", ["-d", "0"], "-d must be greater than 0"),
        Refusal("a positive number", .levels, ["a.wav", "--level-interval", "0"], "--level-interval must be greater than 0"),
        Refusal("a positive number in range", ["-d", "1e300"], "-d: seconds must be between 0 and 604800, not 1e300"),
        Refusal("a positive number in range", ["--buffer", "601"], "--buffer: seconds must be between 0 and 600, not 601"),
        Refusal("a choice", ["--record", "x.wav", "--bits", "12"], "--bits must be 16, 24, 32 or float, not '12'"),
        Refusal("a choice", ["--levels", "x.csv", "--levels-format", "xml"], "--levels-format must be csv or jsonl, not 'xml'"),
        Refusal("a choice", .levels, ["a.wav", "--levels-format", "xml"], "--levels-format must be csv or jsonl, not 'xml'"),
        Refusal("a level", ["--tone", "440", "--volume", "3dB"], "--volume: 3dB is above 0 dBFS"),
        Refusal("a level", ["--tone", "440", "--volume", "loud"], "--volume: 'loud' is not a level (use 0.5 or -6dB)"),
        Refusal("an unknown option", ["--bogus"], "unknown option --bogus (see jackwave --help)"),
        Refusal("an unknown option", .plot, ["a.wav", "--colour", "red"], "unknown option --colour (see jackwave plot --help)"),
        Refusal("an unknown option", .levels, ["a.wav", "-x"], "unknown option -x (see jackwave levels --help)"),
        Refusal("an argument where none is taken", ["--record", "x.wav", "stray"], "unexpected argument 'stray' (see jackwave --help)"),
        Refusal("a second argument", .plot, ["a.wav", "b.wav"], "plot draws one FILE; unexpected 'b.wav'"),
        Refusal("a second argument", .levels, ["a.wav", "b.wav"], "levels: one input file only, not also 'b.wav'"),
        Refusal("no argument", .levels, ["--block", "5"], "levels: which file? (jackwave levels FILE [-o OUT])"),
        Refusal("an option that needs another", ["--bits", "16"], "--bits needs --record"),
        Refusal("an option that needs another", ["-t", "x"], "--to needs --tone"),
        Refusal("an option that needs another", ["--record", "x.wav", "--volume", "0.5"], "--volume needs --tone"),
        Refusal("an option that needs another", ["--level-interval", "10"], "--level-interval needs --levels"),
        Refusal("options that exclude each other", ["--record", "x.wav", "--manual", "-p", "a"], "--manual and --port exclude each other"),
        Refusal("an empty range", .plot, ["a.wav", "--start", "2", "--end", "0.5"], "--end 0.5 must be after --start 2"),
        Refusal("--version not alone", ["--tone", "440", "--version"], "--version comes alone: jackwave --version"),
    ]

    @Test("a bad value or combination is refused in one line", arguments: refusals)
    func refused(_ refusal: Refusal) {
        #expect(refusal.actual == refusal.message)
    }

    @Test("--formats is answered before the checks between options")
    func formatsFirst() throws {
        #expect(try RunOptionsParser.parse(["--formats", "--bits", "16"]).recording.listFormats)
    }

    @Test("-h and --help are asked for wherever they stand, even after a bad option")
    func helpAnywhere() {
        #expect(RunOptionsParser.commandLine.asksForHelp(["--bogus", "-h"]))
        #expect(PlotCommand.commandLine.asksForHelp(["a.wav", "--help"]))
        #expect(!LevelsCommand.commandLine.asksForHelp(["a.wav", "--help=1"]))
    }

    @Test("values set what they declare, short and long spellings alike")
    func values() throws {
        let o = try RunOptionsParser.parse(["--tone=997.5", "--outputs", "3", "-t", "a:*", "--to=b", "--volume", "-6dB",
                                            "-c4", "-n", "probe", "--no-meter", "--levels", "-", "--levels-format", "jsonl"])
        #expect(o.tone.frequency == 997.5 && o.tone.outputs == 3 && o.tone.toPatterns == ["a:*", "b"] && o.jack.channels == 4)
        #expect(o.jack.clientName == "probe" && o.levels.meter == false && o.levels.path == "-" && o.levels.format == .jsonl)
        #expect(abs(o.tone.volume - 0.501) < 0.001)
        let r = try PlotCommand.parse(["-", "-o", "x.svg", "--width", "400", "--db", "--force"])
        #expect(r.input == "-" && r.output == "x.svg" && r.options.width == 400 && r.options.decibels && r.force)
    }
}
