import JackwaveHost
import JackwaveRunSupport

/// A command's positional argument (`FILE`): its help, and what it does to the options
/// (which also refuses a second one, in the command's own words).
struct ArgumentDeclaration<Options>: Sendable {
    let placeholder: String
    /// What the argument is, for shell completions.
    let kind: ValueKind
    let help: [String]
    let apply: @Sendable (inout Options, String) throws(UsageError) -> Void

    init(_ placeholder: String, kind: ValueKind = .text, help: String...,
         apply: @escaping @Sendable (inout Options, String) throws(UsageError) -> Void) {
        self.placeholder = placeholder
        self.kind = kind
        self.help = help
        self.apply = apply
    }
}
