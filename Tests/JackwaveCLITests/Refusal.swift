@testable import JackwaveCLI
import JackwaveHost
import JackwaveRunSupport
import Testing

/// A command line one of the commands refuses, and the one line it refuses it with.
struct Refusal: Sendable, CustomTestStringConvertible {
    enum Command: Sendable { case main, plot, levels }
    let kind: String
    let command: Command
    let arguments: [String]
    let message: String

    init(_ kind: String, _ command: Command, _ arguments: [String], _ message: String) {
        self.kind = kind
        self.command = command
        self.arguments = arguments
        self.message = message
    }

    /// A refusal of the main command.
    init(_ kind: String, _ arguments: [String], _ message: String) {
        self.init(kind, .main, arguments, message)
    }

    var testDescription: String { "\(kind): \(arguments.joined(separator: " "))" }

    /// What the command's parser says, or nil if it accepts the arguments.
    var actual: String? {
        do throws(UsageError) {
            switch command {
            case .main: _ = try RunOptionsParser.parse(arguments)
            case .plot: _ = try PlotCommand.parse(arguments)
            case .levels: _ = try LevelsCommand.parse(arguments)
            }
            return nil
        } catch {
            return error.message.line
        }
    }
}
