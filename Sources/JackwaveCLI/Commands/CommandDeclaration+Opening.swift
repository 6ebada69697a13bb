import JackwaveHost
import JackwaveRunSupport

/// What a subcommand's command line came to: options to run with, or the exit status
/// already decided (the help was shown, or the line was refused).
enum CommandOpening<Options> {
    case proceed(Options)
    case exit(Int32)
}

extension CommandDeclaration {
    /// The opening the subcommands share: `--help` anywhere prints the help on stdout (exit
    /// 0); otherwise `read` gives the options, and a `UsageError` it throws is one line on
    /// stderr (exit 2).
    func open<Read>(_ arguments: [String], _ read: () throws(UsageError) -> Read) -> CommandOpening<Read> {
        if asksForHelp(arguments) {
            Console.writeOut(HelpText.render(self))
            return .exit(0)
        }
        do throws(UsageError) {
            return .proceed(try read())
        } catch {
            Console.error(error.message)
            return .exit(2)
        }
    }
}
