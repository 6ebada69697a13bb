/// What an option's value (or a command's argument) is, beyond its placeholder: what a shell
/// completes it with, and the words a fixed-choice option takes. Declared next to the option,
/// so that a new option's completion comes with its declaration.
enum ValueKind: Sendable, Equatable {
    /// Free text or a number: nothing to offer.
    case text
    /// Exactly one of these words (`csv`, `jsonl`).
    case choices([String])
    /// A file path, offered among files with these extensions (any file when empty).
    case file(extensions: [String])
    /// A JACK port name or glob, offered from the running server's ports (`jack_lsp`).
    case port

    /// The words of `.choices`, else none.
    var choices: [String] { if case let .choices(words) = self { words } else { [] } }
}
