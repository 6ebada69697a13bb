/// One argument of an OSC message, as jackwave reads and sends them.
public enum OscArgument: Sendable, Equatable {
    case int(Int64)
    /// A 32-bit int (type tag `i`), for peers that take no other: jackwave reads every int
    /// as `int`, and sends this only where a protocol asks for `i` (NSM's announce).
    case int32(Int32)
    case float(Double)
    case string(String)
    /// A type jackwave takes nowhere (blob, MIDI, time tag, …), by its OSC type tag.
    case other(Character)

    /// What the messages call it: "int", "float", "string", or the OSC type tag.
    var typeName: String {
        switch self {
        case .int, .int32: "int"
        case .float: "float"
        case .string: "string"
        case let .other(tag): "type '\(tag)'"
        }
    }

    /// The value as a number, for arguments that take one (an int or a float).
    var number: Double? {
        switch self {
        case let .int(i): Double(i)
        case let .int32(i): Double(i)
        case let .float(d): d
        default: nil
        }
    }
}
