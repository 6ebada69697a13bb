import JackwaveHost
import JackwaveRunSupport

/// One option of a command, declared once: how it is spelled, what its help says, and what
/// it does to the command's options. A command's parser, its `--help`, the man page and the
/// shell completions are all read from these (`Documentation/`).
struct OptionDeclaration<Options>: Sendable {
    /// Every spelling, short first: `["-c", "--channels"]`.
    let names: [String]
    /// What the value stands for in the help (`N`, `FILE`); nil for a flag, which takes none.
    let placeholder: String?
    /// What the value is, for shell completions (`.text` for a flag).
    let kind: ValueKind
    /// The help text, one string per line, each short enough for the help's second column.
    let help: [String]
    /// The option this one means nothing without (`--bits` needs `--record`), by its long
    /// name; refused after parsing rather than silently ignored.
    let needs: String?
    /// Reads the option's value (if it takes one), checks it and sets it in the options.
    let apply: @Sendable (inout Options, inout ArgumentScanner) throws(UsageError) -> Void

    /// An option with a value, read from the scanner by `apply`.
    init(_ names: String..., value placeholder: String, kind: ValueKind = .text, needs: String? = nil,
         help: String..., apply: @escaping @Sendable (inout Options, inout ArgumentScanner) throws(UsageError) -> Void) {
        self.init(names: names, placeholder: placeholder, kind: kind, help: help, needs: needs, apply: apply)
    }

    /// A flag: `set` runs once the scanner has refused an inline value (`--force=yes`).
    init(_ names: String..., needs: String? = nil, help: String..., set: @escaping @Sendable (inout Options) -> Void) {
        self.init(names: names, placeholder: nil, help: help, needs: needs) { options, scanner throws(UsageError) in
            try scanner.noValue()
            set(&options)
        }
    }

    init(names: [String], placeholder: String?, kind: ValueKind = .text, help: [String], needs: String? = nil,
         apply: @escaping @Sendable (inout Options, inout ArgumentScanner) throws(UsageError) -> Void) {
        precondition(!names.isEmpty && !help.isEmpty, "an option needs a name and a line of help")
        self.names = names
        self.placeholder = placeholder
        self.kind = kind
        self.help = help
        self.needs = needs
        self.apply = apply
    }

    /// The long name: messages name the option by it whatever spelling was typed.
    var name: String { names[names.count - 1] }

    /// `-c, --channels N`: the option as the help shows it.
    var label: String { names.joined(separator: ", ") + (placeholder.map { " \($0)" } ?? "") }

    /// `-h, --help`, in every command's table so that its help lists it. It is answered by
    /// `CommandDeclaration.asksForHelp` before parsing (wherever it stands, even after a
    /// bad option), so the parser only has to accept it.
    static var helpOption: OptionDeclaration {
        OptionDeclaration("-h", "--help", help: "this help") { _ in }
    }
}
