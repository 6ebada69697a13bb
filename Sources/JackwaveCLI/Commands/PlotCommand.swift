import JackwaveHost
import JackwavePlot
import JackwaveRunSupport

/// `jackwave plot FILE -o OUT`: draws a recording, a level stream or a MIDI file to a PNG or SVG.
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
        if commandLine.asksForHelp(arguments) {
            Console.writeOut(HelpText.render(commandLine))
            return 0
        }
        do throws(UsageError) {
            let request = try parse(arguments)
            guard let input = request.input else { throw UsageError("plot needs a FILE to draw (see jackwave plot --help)") }
            guard let output = request.output else { throw UsageError("plot needs -o OUT.png or -o OUT.svg") }
            guard PlotFormat(path: output) != nil else {
                throw UsageError("-o \(output): unknown extension (use .png or .svg)")
            }
            try OutputPath.check(output, force: request.force, option: .output)
            return draw(input, to: output, options: request.options, force: request.force)
        } catch {
            Console.error(error.message)
            return 2
        }
    }

    /// Draws and reports: 0, or one error line and 2 (bad input) or 1 (failed to write).
    static func draw(_ input: String, to output: String, options: PlotOptions, force: Bool) -> Int32 {
        do throws(PlotError) {
            try Plot.draw(input, to: output, options: options, existing: force ? .replace : .refuse)
            return 0
        } catch {
            Console.error(error.message)
            return error.kind == .badInput ? 2 : 1
        }
    }
}
