import CLo
import Glibc

/// A message jackwave sends: a reply, or (in tests, and for peers) a request.
public struct OscOutgoing: Sendable, Equatable {
    public let path: String
    public let arguments: [OscArgument]

    public init(path: String, arguments: [OscArgument] = []) {
        self.path = path
        self.arguments = arguments
    }

    /// The datagram: `lo_message_new`, `lo_message_add_*` per argument, `lo_message_serialise`
    /// (liblo encodes; jackwave never writes OSC by hand), `lo_message_free`. Nil if liblo
    /// refuses it.
    public var datagram: [UInt8]? {
        guard let message = message() else { return nil }
        defer { lo_message_free(message) }
        var size = 0
        guard let bytes = lo_message_serialise(message, path, nil, &size) else { return nil }
        defer { free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: size))
    }

    /// A bundle of `messages` as one datagram, time-tagged `timeTag` (NTP seconds and
    /// fraction; nil: "immediately"): `lo_bundle_new`, `lo_bundle_add_message`,
    /// `lo_bundle_serialise`, `lo_bundle_free_recursive`. For tests and fuzzing seeds.
    public static func bundle(_ messages: [OscOutgoing], timeTag: (seconds: UInt32, fraction: UInt32)? = nil) -> [UInt8]? {
        let tag = timeTag.map { lo_timetag(sec: $0.seconds, frac: $0.fraction) } ?? lo_timetag(sec: 0, frac: 1)
        guard let bundle = lo_bundle_new(tag) else { return nil }
        defer { lo_bundle_free_recursive(bundle) }
        for outgoing in messages {
            guard let message = outgoing.message() else { return nil }
            guard lo_bundle_add_message(bundle, outgoing.path, message) == 0 else { lo_message_free(message); return nil }
        }
        var size = 0
        guard let bytes = lo_bundle_serialise(bundle, nil, &size) else { return nil }
        defer { free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: size))
    }

    /// A new `lo_message` holding the arguments (the caller frees it, or a bundle does).
    private func message() -> lo_message? {
        guard let message = lo_message_new() else { return nil }
        for argument in arguments {
            switch argument {
            case let .int(i): lo_message_add_int64(message, i)
            case let .int32(i): lo_message_add_int32(message, i)
            case let .float(d): lo_message_add_double(message, d)
            case let .string(s): lo_message_add_string(message, s)
            case .other: break
            }
        }
        return message
    }
}
