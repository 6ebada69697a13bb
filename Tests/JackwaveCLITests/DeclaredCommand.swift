@testable import JackwaveCLI
import JackwaveHost
import JackwaveRunSupport
import Testing

/// One command's declarations and help, without its options' type: what the table tests need.
struct DeclaredCommand: Sendable, CustomTestStringConvertible {
    let name: String
    let help: String
    /// Each option's spellings and placeholder, in table order.
    let options: [(names: [String], label: String)]
    /// The long names the options need (`--record`), in table order.
    let needs: [String]
    /// Runs the table-driven parse loop alone (no checks between options): nil or the error.
    let parseLoop: @Sendable ([String]) -> String?

    init<Options: Sendable>(_ command: CommandDeclaration<Options>, help: String, defaults: Options) {
        name = command.name
        self.help = help
        options = command.options.map { ($0.names, $0.label) }
        needs = command.options.compactMap(\.needs)
        parseLoop = { arguments in
            do throws(UsageError) {
                _ = try command.parse(arguments, into: defaults)
                return nil
            } catch {
                return error.message.line
            }
        }
    }

    var testDescription: String { name }

    static let all = [
        DeclaredCommand(RunOptionsParser.commandLine, help: Jackwave.help, defaults: RunOptions()),
        DeclaredCommand(PlotCommand.commandLine, help: HelpText.render(PlotCommand.commandLine),
                        defaults: PlotCommand.Request()),
        DeclaredCommand(LevelsCommand.commandLine, help: HelpText.render(LevelsCommand.commandLine),
                        defaults: LevelsCommand.Options()),
        DeclaredCommand(LoudnessCommand.commandLine, help: HelpText.render(LoudnessCommand.commandLine),
                        defaults: LoudnessCommand.Options()),
        DeclaredCommand(MeasureCommand.commandLine, help: HelpText.render(MeasureCommand.commandLine),
                        defaults: MeasureCommand.Options()),
    ]
}
