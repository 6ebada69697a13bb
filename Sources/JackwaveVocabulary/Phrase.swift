/// A line for the user that may point at settings: text with `Setting`s in it, written as
/// an interpolated string (`"\(setting: .record) \(path): file exists"`).
///
/// The label keeps a setting out of a plain `String`: there, `\(setting:)` does not compile,
/// where a bare `\(setting: .record)` would quietly print "record".
///
/// It is rendered only where the option names are known, by the command line's
/// `text(naming:)`; so a module below it can say which option a message is about without
/// spelling one.
public struct Phrase: Sendable, Equatable, ExpressibleByStringInterpolation {
    public enum Part: Sendable, Equatable {
        case text(String)
        case setting(Setting)
    }

    public private(set) var parts: [Part]

    public init(parts: [Part]) { self.parts = parts }
    public init(stringLiteral text: String) { parts = text.isEmpty ? [] : [.text(text)] }
    /// A phrase of text alone, as it is (a message from a library or the system).
    public init(verbatim text: String) { self.init(stringLiteral: text) }
    public init(stringInterpolation: Interpolation) { parts = stringInterpolation.parts }

    public struct Interpolation: StringInterpolationProtocol {
        var parts: [Part] = []
        public init(literalCapacity: Int, interpolationCount: Int) { parts.reserveCapacity(2 * interpolationCount + 1) }
        public mutating func appendLiteral(_ literal: String) { appendText(literal) }
        public mutating func appendInterpolation(setting: Setting) { parts.append(.setting(setting)) }
        public mutating func appendInterpolation(_ phrase: Phrase) {
            for part in phrase.parts {
                if case let .text(t) = part { appendText(t) } else { parts.append(part) }
            }
        }
        // Only what describes itself: a `Setting` (not CustomStringConvertible) must come
        // through `setting:`.
        public mutating func appendInterpolation<T: CustomStringConvertible>(_ value: T) { appendText(value.description) }

        // Neighbouring text stays one part, so that equal lines compare equal.
        mutating func appendText(_ text: String) {
            guard !text.isEmpty else { return }
            if case let .text(before)? = parts.last { parts[parts.count - 1] = .text(before + text) } else { parts.append(.text(text)) }
        }
    }

    /// The line, each setting spelt by `naming`.
    public func text(naming: (Setting) -> String) -> String {
        parts.map { part in
            switch part {
            case let .text(t): t
            case let .setting(s): naming(s)
            }
        }.joined()
    }

    /// Whether the line points at `setting`.
    public func mentions(_ setting: Setting) -> Bool { parts.contains(.setting(setting)) }

    /// The line with `other` after it.
    public static func + (line: Phrase, other: Phrase) -> Phrase { "\(line)\(other)" }
}
