import FoundationEssentials
import Glibc

/// Any JSON value, as FoundationEssentials' `JSONDecoder` reads it: the general path for a
/// JSON Lines row that the fast scanner (`FlatObject`) does not understand.
enum JSONValue: Decodable {
    case number(Double)
    case null
    case other
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let n = try? single.decode(Double.self) { self = .number(n) }
        else if let a = try? single.decode([JSONValue].self) { self = .array(a) }
        else if let o = try? single.decode([String: JSONValue].self) { self = .object(o) }
        else { self = .other }   // a string or a boolean: nothing a level stream holds
    }

    /// The number, if this is one.
    var number: Double? { if case let .number(n) = self { n } else { nil } }
}
