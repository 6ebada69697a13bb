/// A completion script for bash, zsh or fish, generated from the commands' declarations
/// (options, their value kinds, the argument's); printed by the hidden
/// `jackwave --completions SHELL` and installed in each shell's standard place.
enum ShellCompletion: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// The script for this shell.
    func render(_ commands: [DocumentedCommand]) -> String {
        switch self {
        case .bash: BashCompletion.render(commands)
        case .zsh: ZshCompletion.render(commands)
        case .fish: FishCompletion.render(commands)
        }
    }

    /// The help's lines of an option as one line: a description for a completion menu.
    static func oneLine(_ help: [String]) -> String { help.joined(separator: " ") }

    /// `text` inside single quotes for bash, zsh or fish: `'` closes, is escaped, reopens.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
