import JackwaveHost

/// Walks `argv` one option at a time: `--name value`, `--name=value`, `-x value`, `-xvalue`.
///
/// Small on purpose: jackwave cannot fetch swift-argument-parser, and its grammar is flat.
public struct ArgumentScanner {
    private var rest: ArraySlice<String>
    private var pendingValue: String?
    /// The option being read, for error messages.
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

    /// A finite number within `range`.
    public mutating func number(in range: ClosedRange<Double>, what: String) throws(UsageError) -> Double {
        let text = try value()
        guard let v = Double(text), v.isFinite else {
            throw UsageError("\(current): '\(text)' is not a number")
        }
        guard range.contains(v) else {
            throw UsageError("\(current): \(what) must be between \(range.lowerBound.plainText) and \(range.upperBound.plainText), not \(text)")
        }
        return v
    }

    /// A whole number within `range`.
    public mutating func integer(in range: ClosedRange<Int>) throws(UsageError) -> Int {
        let text = try value()
        guard let v = Int(text) else { throw UsageError("\(current): '\(text)' is not a whole number") }
        guard range.contains(v) else {
            throw UsageError("\(current) must be between \(range.lowerBound) and \(range.upperBound), not \(text)")
        }
        return v
    }

    private func isNumber(_ s: String) -> Bool { Double(s) != nil }
}
