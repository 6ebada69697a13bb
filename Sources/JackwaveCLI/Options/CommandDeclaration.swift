import JackwaveHost
import JackwaveRunSupport

/// A command's whole command line as data: what it is for, its usage, its positional
/// argument, its options in help sections. Its parser, its `--help` (`HelpText`), the man page
/// (`ManPage`) and the shell completions (`ShellCompletion`) are all read from it.
struct CommandDeclaration<Options>: Sendable {
    /// As a user types it: `jackwave`, `jackwave plot`.
    let name: String
    /// The help's first line.
    let summary: String
    /// The usage lines, as printed under `Usage:`.
    let usage: [String]
    /// The positional argument; nil for a command that takes none.
    let argument: ArgumentDeclaration<Options>?
    let sections: [OptionSection<Options>]
    /// Lines printed at the end of the help (exit codes).
    let footer: [String]

    /// Every option, section by section.
    var options: [OptionDeclaration<Options>] { sections.flatMap(\.options) }

    /// The option spelled `name` (`-c` or `--channels`).
    func option(named name: String) -> OptionDeclaration<Options>? {
        options.first { $0.names.contains(name) }
    }

    /// Whether `arguments` ask for the help, which is answered before anything is parsed.
    func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.contains { OptionDeclaration<Options>.helpOption.names.contains($0) }
    }

    /// The options `arguments` set on top of `defaults`, and the long names of those given;
    /// or the first thing wrong with one of them. Checks between options are the caller's
    /// (`checkNeeds` for the declared ones).
    func parse(_ arguments: [String], into defaults: Options) throws(UsageError) -> (options: Options, given: Set<String>) {
        var options = defaults
        var given: Set<String> = []
        var scanner = ArgumentScanner(arguments)
        while let word = scanner.next() {
            if let option = option(named: word) {
                try option.apply(&options, &scanner)
                given.insert(option.name)
            } else if word.hasPrefix("-") && word != "-" {   // `-` is a file: stdin or stdout
                throw UsageError("unknown option \(word) (see \(name) --help)")
            } else if let argument {
                try argument.apply(&options, word)
            } else {
                throw UsageError("unexpected argument '\(word)' (see \(name) --help)")
            }
        }
        return (options, given)
    }

    /// Refuses an option given without the one it `needs`, in the table's order.
    func checkNeeds(_ given: Set<String>) throws(UsageError) {
        for option in options where given.contains(option.name) {
            if let needed = option.needs, !given.contains(needed) {
                throw UsageError("\(option.name) needs \(needed)")
            }
        }
    }
}
