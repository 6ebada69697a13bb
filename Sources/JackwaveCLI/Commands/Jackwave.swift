import Glibc
import JackwaveHost
import JackwaveRunSupport

/// The `jackwave` command: dispatches to the main command or a subcommand.
public enum Jackwave {
    public static let version = "0.1.0"

    /// Runs with `arguments` (without the program name); returns the exit code.
    public static func main(_ given: [String], executable: String = "jackwave") -> Int32 {
        var arguments = given
        // Started by a session manager (NSM): the session gives the settings.
        if let url = getenv("NSM_URL").map({ String(cString: $0) }), !url.isEmpty {
            if given.isEmpty { return SessionManagedRun.run(url: url, executable: executable) }
            if !["plot", "levels", "loudness", "measure", "--help", "-h", "--version"].contains(given[0]) {
                Console.say("NSM_URL is set, but arguments were given: running outside the session")
            }
        }
        // `--arguments FILE`, first: the command line from a file, then the rest (ArgumentsFile).
        if arguments.first == "--arguments" {
            guard arguments.count >= 2 else {
                Console.error("--arguments needs a value")
                return 2
            }
            do throws(UsageError) { arguments = try ArgumentsFile.read(arguments[1]) + arguments.dropFirst(2) } catch {
                Console.error(error.message)
                return 2
            }
        }
        switch arguments.first {
        case "plot": return PlotCommand.run(Array(arguments.dropFirst()))
        case "levels": return LevelsCommand.run(Array(arguments.dropFirst()))
        case "loudness": return LoudnessCommand.run(Array(arguments.dropFirst()))
        case "measure": return MeasureCommand.run(Array(arguments.dropFirst()))
        // Hidden (in no help, so in no man page): what scripts/package and scripts/install
        // generate the man page and the completions with.
        case "--man":
            Console.writeOut(ManPage.render(Self.documentedCommands, version: Self.version))
            return 0
        case "--completions":
            guard arguments.count == 2, let shell = ShellCompletion(rawValue: arguments[1]) else {
                Console.error("--completions takes one of bash, zsh, fish")
                return 2
            }
            Console.writeOut(shell.render(Self.documentedCommands))
            return 0
        default: break
        }
        if RunOptionsParser.commandLine.asksForHelp(arguments) {
            Console.writeOut(help)
            return 0
        }
        if arguments.first == "--version" {
            Console.writeOut(VersionText.render())
            return 0
        }
        do throws(UsageError) {
            let options = try RunOptionsParser.parse(arguments)
            return RunCommand.run(options)
        } catch {
            Console.error(error.message)
            return 2
        }
    }

    /// Parses a command line as `main` would, running nothing: the usage error, or nil if it
    /// parses. For the fuzzer (`jackwave-fuzz options`): every command's grammar from one call.
    public static func parseOnly(_ arguments: [String]) -> String? {
        do throws(UsageError) {
            switch arguments.first {
            case "plot": _ = try PlotCommand.parse(Array(arguments.dropFirst()))
            case "levels": _ = try LevelsCommand.parse(Array(arguments.dropFirst()))
            case "loudness": _ = try LoudnessCommand.parse(Array(arguments.dropFirst()))
            case "measure": _ = try MeasureCommand.parse(Array(arguments.dropFirst()))
            default: _ = try RunOptionsParser.parse(arguments)
            }
            return nil
        } catch {
            return error.message.line
        }
    }

    /// `jackwave --help`: the main command's options, and `plot`'s, which draws what it records.
    static var help: String {
        HelpText.render(RunOptionsParser.commandLine, more: [PlotCommand.mainHelpSection])
    }
}

extension Jackwave {
    /// Every command, main first, as `man jackwave` and the completions present them.
    static var documentedCommands: [DocumentedCommand] {
        [RunOptionsParser.commandLine.documented, PlotCommand.commandLine.documented,
         LevelsCommand.commandLine.documented, LoudnessCommand.commandLine.documented,
         MeasureCommand.commandLine.documented]
    }
}
