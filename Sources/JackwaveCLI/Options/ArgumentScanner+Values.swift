import JackwaveHost
import JackwaveRunSupport

/// The kinds of value an option takes, each read and checked in one place so that every
/// option of a kind fails with the same words: `-c must be between 1 and 1024, not 0`.
extension ArgumentScanner {
    /// Any text but the empty string (`--record ""` is a slip, not a file name).
    public mutating func nonEmptyValue() throws(UsageError) -> String {
        let text = try value()
        guard !text.isEmpty else { throw UsageError("\(current) needs a non-empty value") }
        return text
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

    /// A finite number within `range`; `what` names it in the message (`seconds`).
    public mutating func number(in range: ClosedRange<Double>, what: String) throws(UsageError) -> Double {
        let text = try value()
        guard let v = Double(text) else { throw UsageError("\(current): '\(text)' is not a number") }
        // `nan`, `inf`, `-inf` parse as numbers, and are named as what they are not.
        guard v.isFinite else { throw UsageError("\(current): '\(text)' is not a finite number") }
        guard range.contains(v) else {
            throw UsageError("\(current): \(what) must be between \(range.lowerBound.plainText) and \(range.upperBound.plainText), not \(text)")
        }
        return v
    }

    /// A number above 0 and at most `maximum`. Zero has a message of its own: it is in the
    /// range a user reads from the other message, but means nothing (no duration, no tone).
    public mutating func positiveNumber(upTo maximum: Double, what: String) throws(UsageError) -> Double {
        let v = try number(in: 0...maximum, what: what)
        guard v > 0 else { throw UsageError("\(current) must be greater than 0") }
        return v
    }

    /// One of a fixed set of words, as `parse` reads them; `expected` lists them for the
    /// message (`16, 24, 32 or float`).
    public mutating func choice<Value>(_ parse: (String) -> Value?, expected: String) throws(UsageError) -> Value {
        let text = try value()
        guard let v = parse(text) else { throw UsageError("\(current) must be \(expected), not '\(text)'") }
        return v
    }
}
