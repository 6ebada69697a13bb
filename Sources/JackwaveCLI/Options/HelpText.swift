/// What `--help` prints, laid out from a command's declaration: the summary, the usage,
/// then each section's options in two columns (the spelling from column 2, the help from
/// column 25), its notes, and the footer.
enum HelpText {
    /// Where the help column starts; a spelling too wide for its column gets a line of its own.
    static let helpColumn = 25

    /// The whole help of `command`. `more` (another command's sections, already laid out)
    /// go before the last section, which a command keeps for `--help` and its like.
    static func render<Options>(_ command: CommandDeclaration<Options>, more: [[String]] = []) -> String {
        var lines = [command.summary, "", "Usage:"] + command.usage.map { "  " + $0 } + [""]
        if let argument = command.argument {
            lines += row(argument.placeholder, argument.help) + [""]
        }
        var blocks = command.sections.map { section($0.title, $0.options, notes: $0.notes) }
        blocks.insert(contentsOf: more, at: max(blocks.count - 1, 0))
        for block in blocks { lines += block + [""] }
        lines += command.footer
        return lines.joined(separator: "\n") + "\n"
    }

    /// A section: `Title:`, one row per option (after the argument's, if given), the notes.
    static func section<Options>(_ title: String, _ options: [OptionDeclaration<Options>], notes: [String] = [],
                                 argument: ArgumentDeclaration<Options>? = nil) -> [String] {
        var lines = [title + ":"]
        if let argument { lines += row(argument.placeholder, argument.help) }
        for option in options { lines += row(option.label, option.help) }
        return lines + notes.map { "  " + $0 }
    }

    /// `  label   help`, the help's further lines under its first.
    static func row(_ label: String, _ help: [String]) -> [String] {
        let indent = String(repeating: " ", count: helpColumn)
        let head = "  " + label
        guard head.count < helpColumn else { return [head] + help.map { indent + $0 } }
        let first = head + String(repeating: " ", count: helpColumn - head.count) + help[0]
        return [first] + help.dropFirst().map { indent + $0 }
    }
}
