import FoundationEssentials
import Glibc
import JackwaveSoundFiles
import Synchronization
import JackwaveVocabulary

/// `--events FILE|-`: a JSON Lines stream of what happens in a run, one object per line with
/// `event` (a `RunEventKind`), `time` (local ISO 8601 wall time, milliseconds) and `frame`
/// (the position on the run's timeline: frames received since frame 0, at the server's
/// rate, counted across reconnects), plus the event's own fields.
///
/// Written from the main thread and the writer thread (never the realtime one): a lock
/// keeps lines whole, and each line is one `write(2)`, so a reader tailing the file never
/// sees half an object. Objects are encoded by `JSONEncoder` (FoundationEssentials) with
/// sorted keys, so a line's field order is stable.
///
/// With `--on-event`, each line of a kind a person acts on (`RunEventKind.runsEventHook`) is
/// also handed to that command (`EventHook`), whether or not `--events` writes them too.
public final class EventLog: Sendable {
    /// The descriptor written to: the file's, 1 for `-`, -1 for none (`--on-event` alone).
    private let fd: Mutex<Int32>
    private let ownsDescriptor: Bool
    /// The first write error, said once by whoever reads `failure`.
    private let failureText = Mutex<Phrase?>(nil)
    /// `--on-event`'s command, if any.
    private let hook: EventHook?

    /// Events for `--on-event` alone: nothing is written; the hook gets its lines.
    public init(hook: EventHook) {
        fd = Mutex(-1)
        ownsDescriptor = false
        self.hook = hook
    }

    /// Creates `path` through `CreatedFile` (never through a link; a plain file there is
    /// overwritten only with `policy` `.replace`, `--force`; locked while open), or uses
    /// stdout for `-`; `hook` gets its lines too.
    public init(path: String, policy: CreatedFile.Policy = .new, hook: EventHook? = nil) throws(EventLogError) {
        self.hook = hook
        if path == "-" {
            fd = Mutex(1)
            ownsDescriptor = false
            return
        }
        do throws(CreatedFileError) { fd = Mutex(try CreatedFile.open(path, policy: policy)) } catch {
            throw EventLogError(message: "\(setting: .events) \(error.message)")
        }
        ownsDescriptor = true
    }

    deinit { if ownsDescriptor { fd.withLock { _ = close($0) } } }

    /// A field's value: what JSON can hold that an event needs.
    public enum Value: Sendable, Encodable {
        case string(String), int(Int64), double(Double), bool(Bool)
        /// A list of whole numbers (`clipping`'s counts per input).
        case ints([Int64])

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case let .string(s): try container.encode(s)
            case let .int(i): try container.encode(i)
            case let .double(d): try container.encode(d.isFinite ? d : 0)
            case let .bool(b): try container.encode(b)
            case let .ints(list): try container.encode(list)
            }
        }
    }

    /// Sorted keys, and `/` left as it is (paths stay readable).
    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Writes one event line, stamped with the wall clock now.
    public func emit(_ kind: RunEventKind, frame: Int64, _ fields: [(String, Value)] = []) {
        guard let data = Self.line(kind, frame: frame, fields) else { return }
        hook?.fire(kind, line: data)
        fd.withLock { fd in
            guard fd >= 0 else { return }
            let ok = data.withUnsafeBytes { bytes in writeAll(fd, bytes) }
            if !ok { failureText.withLock { if $0 == nil { $0 = "\(setting: .events): write failed: \(String(cString: strerror(errno)))" } } }
        }
    }

    /// One event as its JSON line (with the newline), stamped with the wall clock now: what
    /// `emit` writes, and what `--on-event` hands its command (`EventHook`).
    public static func line(_ kind: RunEventKind, frame: Int64, _ fields: [(String, Value)] = []) -> Data? {
        var object: [String: Value] = ["event": .string(kind.rawValue), "time": .string(WallClockTime.now().iso8601),
                                       "frame": .int(frame)]
        for (key, value) in fields { object[key] = value }
        guard var data = try? encoder().encode(object) else { return nil }
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The first write error, if any (the events stop being complete; the recording goes on).
    public var failure: Phrase? { failureText.withLock { $0 } }

    /// `write(2)` until every byte is out; false on an error.
    private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            done += n
        }
        return true
    }
}

/// `--events` cannot be opened.
public struct EventLogError: Error, Equatable {
    public let message: Phrase
}
