import JackwaveHost
import JackwaveRunSupport

/// Walks `argv` one option at a time: `--name value`, `--name=value`, `-x value`, `-xvalue`.
///
/// Small on purpose: jackwave cannot fetch swift-argument-parser, and its grammar is flat.
/// What an option means is its `OptionDeclaration`'s business; the typed values are read by
/// `ArgumentScanner+Values`.
public struct ArgumentScanner {
    private var rest: ArraySlice<String>
    private var pendingValue: String?
    /// The option being read, as typed (`-c`, not `--channels`), for error messages.
    public private(set) var current = ""

    public init(_ arguments: [String]) { rest = arguments[...] }

    /// The next option name (`--record`, `-c`), or a positional argument as itself; nil
    /// at the end. An inline value (`--x=1`, `-c2`) is kept for `value()`.
    public mutating func next() -> String? {
        guard let arg = rest.popFirst() else { return nil }
        pendingValue = nil
        if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
            current = String(arg[..<eq])
            pendingValue = String(arg[arg.index(after: eq)...])
        } else if arg.hasPrefix("-") && !arg.hasPrefix("--") && arg.count > 2 && !isNumber(arg) {
            current = String(arg.prefix(2))
            pendingValue = String(arg.dropFirst(2))
        } else {
            current = arg
        }
        return current
    }

    /// The value of the current option, or a usage error if there is none.
    public mutating func value() throws(UsageError) -> String {
        if let v = pendingValue { pendingValue = nil; return v }
        guard let v = rest.popFirst() else { throw UsageError("\(current) needs a value") }
        return v
    }

    /// Fails if the current option was given an inline value it does not take.
    public func noValue() throws(UsageError) {
        if pendingValue != nil { throw UsageError("\(current) takes no value") }
    }

    private func isNumber(_ s: String) -> Bool { Double(s) != nil }
}
