/// The `jackwave` command: dispatches to the main command or a subcommand.
public enum Jackwave {
    public static let version = "0.1.0"

    /// Runs with `arguments` (without the program name); returns the exit code.
    public static func main(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case "plot": return PlotCommand.run(Array(arguments.dropFirst()))
        case "levels": return LevelsCommand.run(Array(arguments.dropFirst()))
        default: break
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            Console.writeOut(HelpText.main)
            return 0
        }
        if arguments.first == "--version" {
            Console.writeOut("jackwave \(version)\n")
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
}
