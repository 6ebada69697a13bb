import JackwaveHost
import JackwavePlot

/// `jackwave plot FILE -o OUT`: draws a recording or a level stream to a PNG or SVG.
///
/// Only the command line lives here; reading and drawing are `JackwavePlot.Plot`.
/// Exit codes: 0 drawn, 1 the picture could not be written, 2 bad usage or bad input
/// (and then no output file is created).
enum PlotCommand {
    /// What the command line asked for.
    struct Request: Equatable {
        var input: String?
        var output: String?
        var force = false
        var options = PlotOptions()
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            Console.writeOut(HelpText.main)
            return 0
        }
        do throws(UsageError) {
            let request = try parse(arguments)
            guard let input = request.input else { throw UsageError("plot needs a FILE to draw (see jackwave --help)") }
            guard let output = request.output else { throw UsageError("plot needs -o OUT.png or -o OUT.svg") }
            guard PlotFormat(path: output) != nil else {
                throw UsageError("-o \(output): unknown extension (use .png or .svg)")
            }
            try OutputPath.check(output, force: request.force, option: "-o")
            return draw(input, to: output, options: request.options)
        } catch {
            Console.error(error.message)
            return 2
        }
    }

    /// Draws and reports: 0, or one error line and 2 (bad input) or 1 (failed to write).
    static func draw(_ input: String, to output: String, options: PlotOptions) -> Int32 {
        do throws(PlotError) {
            try Plot.draw(input, to: output, options: options)
            return 0
        } catch {
            Console.error(error.message)
            return error.kind == .badInput ? 2 : 1
        }
    }

    /// The options, or the first thing wrong with them.
    static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        var r = Request()
        var s = ArgumentScanner(arguments)
        while let option = s.next() {
            switch option {
            case "-o", "--output": r.output = try s.nonEmptyValue()
            case "--width": r.options.width = try s.integer(in: PlotOptions.widthRange)
            case "--height": r.options.height = try s.integer(in: PlotOptions.heightRange)
            case "--start": r.options.start = try s.number(in: 0...1e9, what: "the start in seconds")
            case "--end": r.options.end = try s.number(in: 0...1e9, what: "the end in seconds")
            case "--db": try s.noValue(); r.options.decibels = true
            case "--force": try s.noValue(); r.force = true
            default:
                if option.hasPrefix("-") && option != "-" {
                    throw UsageError("unknown option \(option) for plot (see jackwave --help)")
                }
                if r.input != nil { throw UsageError("plot draws one FILE; unexpected '\(option)'") }
                r.input = option
            }
        }
        if let start = r.options.start, let end = r.options.end, end <= start {
            throw UsageError("--end \(end.plainText) must be after --start \(start.plainText)")
        }
        return r
    }
}
