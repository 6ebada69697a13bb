/// A command's declaration without its options' type: what the man page and the shell
/// completions are generated from, so that every command (whatever its options struct) is
/// read the same way, and a new declaration appears in both with no work of its own.
struct DocumentedCommand: Sendable {
    /// One option: its spellings, placeholder (nil for a flag), kind and help.
    struct Option: Sendable {
        let names: [String]
        let placeholder: String?
        let kind: ValueKind
        let help: [String]
    }

    /// A titled group of options, with its notes.
    struct Section: Sendable {
        let title: String
        let options: [Option]
        let notes: [String]
    }

    /// The positional argument.
    struct Argument: Sendable {
        let placeholder: String
        let kind: ValueKind
        let help: [String]
    }

    /// As a user types it: `jackwave`, `jackwave plot`.
    let name: String
    let summary: String
    let usage: [String]
    let argument: Argument?
    let sections: [Section]
    let footer: [String]

    /// The word after `jackwave` that selects this command, nil for the main command.
    var subcommand: String? { name.split(separator: " ").dropFirst().first.map(String.init) }
    /// The summary without the command's name in front (`draw a recording…`), for menus.
    var purpose: String {
        guard let colon = summary.firstIndex(of: ":") else { return summary }
        return String(summary[summary.index(after: colon)...].drop { $0 == " " })
    }
    /// Every option, section by section.
    var options: [Option] { sections.flatMap(\.options) }
}

extension CommandDeclaration {
    /// This declaration as the man page and the completions read it.
    var documented: DocumentedCommand {
        DocumentedCommand(
            name: name, summary: summary, usage: usage,
            argument: argument.map { .init(placeholder: $0.placeholder, kind: $0.kind, help: $0.help) },
            sections: sections.map { section in
                .init(title: section.title,
                      options: section.options.map {
                          .init(names: $0.names, placeholder: $0.placeholder, kind: $0.kind, help: $0.help)
                      },
                      notes: section.notes)
            },
            footer: footer)
    }
}

