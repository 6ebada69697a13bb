import JackwaveRecording
import JackwaveRunSupport

/// What an OSC message asks jackwave to do, checked: the one place where a decoded message
/// (outside input) becomes a command, with every bound and every refusal's line. Pure: no
/// run, no thread, so that it can be fuzzed alone (`jackwave-fuzz osc`).
public enum OscCommand: Equatable, Sendable {
    case stop
    case split
    case status
    /// A label of at most `MarkerBook.maximumLabelBytes`, or none.
    case marker(label: String?)
    /// A finite number of Hz above 0 (the server's Nyquist frequency is checked on the run).
    case toneFrequency(hz: Double)
    /// A finite level of at most 0 dBFS.
    case toneVolume(decibels: Double)
    /// Paused or not; nil toggles.
    case tonePause(Bool?)

    /// The paths jackwave answers, with the arguments each takes (for the messages).
    static let usage: [(path: String, arguments: String)] = [
        ("/jackwave/stop", ""), ("/jackwave/split", ""), ("/jackwave/status", ""), ("/jackwave/marker", "[label]"),
        ("/jackwave/tone/frequency", "HZ"), ("/jackwave/tone/volume", "DB"), ("/jackwave/tone/pause", "[0|1]"),
    ]

    /// The paths jackwave's replies use: never a request, so a reply sent on to another
    /// jackwave (a forged sender) is refused there, not acted on.
    public static let replyPrefix = "/jackwave/reply/"

    /// The command `path` and `arguments` ask for, or why there is none.
    public static func parse(_ path: String, _ arguments: [OscArgument]) -> Result<OscCommand, OscRefusal> {
        switch (path, arguments.count) {
        case ("/jackwave/stop", 0): return .success(.stop)
        case ("/jackwave/split", 0): return .success(.split)
        case ("/jackwave/status", 0): return .success(.status)
        case ("/jackwave/marker", 0): return .success(.marker(label: nil))
        case ("/jackwave/marker", 1):
            guard case let .string(label) = arguments[0] else { return .failure(malformed(path, arguments)) }
            let bytes = label.utf8.count
            guard bytes <= MarkerBook.maximumLabelBytes else {
                return .failure(OscRefusal("OSC: /jackwave/marker: a label of \(bytes) bytes is longer than the \(MarkerBook.maximumLabelBytes) allowed (ignored)",
                                           kind: "OSC: labels too long"))
            }
            return .success(.marker(label: label))
        case ("/jackwave/tone/frequency", 1):
            guard let hz = arguments[0].number else { return .failure(malformed(path, arguments)) }
            guard hz.isFinite && hz > 0 else {
                return .failure(ignored(path, "\(hz) Hz is not a frequency (a finite number of Hz above 0)"))
            }
            return .success(.toneFrequency(hz: hz))
        case ("/jackwave/tone/volume", 1):
            guard let db = arguments[0].number else { return .failure(malformed(path, arguments)) }
            guard db.isFinite else { return .failure(ignored(path, "\(db) dB is not a level (a finite number of dB, at most 0)")) }
            guard db <= 0 else { return .failure(ignored(path, "\(db) dB is above 0 dBFS")) }
            return .success(.toneVolume(decibels: db))
        case ("/jackwave/tone/pause", 0): return .success(.tonePause(nil))
        case ("/jackwave/tone/pause", 1):
            guard let value = arguments[0].number, value.isFinite else { return .failure(malformed(path, arguments)) }
            return .success(.tonePause(value != 0))
        default:
            return .failure(malformed(path, arguments))
        }
    }

    /// A refusal for a command that cannot be done now or with this value. Each reason is a
    /// kind of its own (a value refused is said, not hidden behind another value's line);
    /// `RepeatedLines` bounds how many kinds it tells apart.
    package static func ignored(_ path: String, _ why: String) -> OscRefusal {
        OscRefusal("OSC: \(path): \(why) (ignored)", kind: "OSC: \(path): \(why)")
    }

    /// A path jackwave does not answer, or one of its paths with the wrong arguments. The
    /// path is outside text: an excerpt of it (`TerminalEscaping`), and unknown paths all
    /// share one kind, so a flood of made-up paths costs two lines per interval.
    static func malformed(_ path: String, _ arguments: [OscArgument]) -> OscRefusal {
        let given = arguments.isEmpty ? "no arguments"
            : "(" + arguments.prefix(8).map(\.typeName).joined(separator: ", ") + (arguments.count > 8 ? ", …" : "") + ")"
        if let expected = usage.first(where: { $0.path == path })?.arguments {
            return OscRefusal("OSC: \(path) takes \(expected.isEmpty ? "no arguments" : expected), not \(given) (ignored)",
                              kind: "OSC: malformed \(path)")
        }
        let shown = TerminalEscaping.excerpt(path, maximumBytes: 80)
        if path.hasPrefix(replyPrefix) {
            return OscRefusal("OSC: \(shown) is a reply, not a request (ignored)", kind: "OSC: replies received")
        }
        return OscRefusal("OSC: unknown message \(shown) (ignored; jackwave answers \(usage.map(\.path).joined(separator: ", ")))",
                          kind: "OSC: unknown messages")
    }
}

/// Why an OSC message does nothing: its line, and the kind its repeats are counted under
/// (`RepeatedLines`).
public struct OscRefusal: Error, Equatable, Sendable {
    public let line: String
    public let kind: String

    public init(_ line: String, kind: String) {
        self.line = line
        self.kind = kind
    }
}
