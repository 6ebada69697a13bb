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
/// Emitted from the main thread, the audio writer and the side jobs' threads (never the
/// realtime one), and written by a thread of its own (`BoundedWriter`): `emit` never waits
/// for the disk or for a reader, whole lines leave in order, and a reader tailing the file
/// never sees half an object. A reader that stops reading `--events -` costs dropped
/// events, counted and said (and an `events_dropped` line once it reads again); a write
/// error (a full disk) ends the events, said once, and handed to `--on-event` as
/// `events_failed`. Objects are encoded by `JSONEncoder` (FoundationEssentials) with sorted
/// keys, so a line's field order is stable.
///
/// With `--on-event`, each line of a kind a person acts on (`RunEventKind.runsEventHook`) is
/// also handed to that command (`EventHook`), whether or not `--events` writes them too.
public final class EventLog: Sendable {
    /// Where the lines go: nil for none (`--on-event` alone).
    private let output: BoundedWriter?
    /// `stdout` or the path, for lines.
    let displayName: String
    /// `--on-event`'s command, if any.
    private let hook: EventHook?
    /// Lines for the user: drops and the write error, as they happen.
    public let messages = MessageQueue()
    /// The latest event's frame: where `events_dropped` and `events_failed` are placed
    /// (relaxed: a lone value).
    private let lastFrame = Atomic<Int64>(0)

    /// Events for `--on-event` alone: nothing is written; the hook gets its lines.
    public init(hook: EventHook) {
        output = nil
        displayName = ""
        self.hook = hook
    }

    /// Creates `path` through `CreatedFile` (never through a link; a plain file there is
    /// overwritten only with `policy` `.replace`, `--force`; locked while open), or uses
    /// stdout for `-`; `hook` gets its lines too.
    public init(path: String, policy: CreatedFile.Policy = .new, hook: EventHook? = nil) throws(EventLogError) {
        self.hook = hook
        let fd: Int32
        if path == "-" {
            fd = 1
        } else {
            do throws(CreatedFileError) { fd = try CreatedFile.open(path, policy: policy) } catch {
                throw EventLogError(message: "\(setting: .events) \(error.message)")
            }
        }
        displayName = path == "-" ? "stdout" : path
        let relay = ReportRelay()
        output = BoundedWriter(descriptor: fd, ownsDescriptor: path != "-", threadName: "jackwave-events",
                               report: { relay.log?.told($0) })
        relay.log = self
    }

    /// A run that ends before its end closes the log (an error while it is built) still
    /// writes what it queued, within the close's bound.
    deinit { output?.close() }

    /// Where the output's reports reach the log: set once, before any line is written.
    private final class ReportRelay: @unchecked Sendable {
        weak var log: EventLog?
    }

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

    /// Writes one event line, stamped with the wall clock now. Never waits.
    public func emit(_ kind: RunEventKind, frame: Int64, _ fields: [(String, Value)] = []) {
        guard let data = Self.line(kind, frame: frame, fields) else { return }
        lastFrame.store(frame, ordering: .relaxed)
        hook?.fire(kind, line: data)
        _ = data.withUnsafeBytes { output?.write($0) }
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

    /// The write error that ended the events, if any (the recording goes on).
    public var failure: Phrase? {
        output?.failure.map { "\(setting: .events): writing \(displayName) failed: \($0)" }
    }

    /// Events dropped because the reader did not take them (`--events -` not read).
    public var droppedEvents: Int { output?.droppedLines ?? 0 }

    /// Waits up to `timeout` seconds until every line emitted so far is written.
    public func flush(timeout: Double = BoundedWriter.closeSeconds) -> Bool { output?.flush(timeout: timeout) ?? true }

    /// Writes what is queued (waiting at most `timeout` seconds) and closes the file. The
    /// end of the run, after its last event.
    public func close(timeout: Double = BoundedWriter.closeSeconds) {
        output?.close(timeout: timeout)
    }

    /// What the output reports, said; a failure handed to `--on-event` too (the file itself
    /// cannot hold it), drops written into the file once it takes lines again.
    private func told(_ report: BoundedWriter.Report) {
        let frame = lastFrame.load(ordering: .relaxed)
        switch report {
        case .dropping:
            messages.post("\(setting: .events): \(displayName) is not taking its lines; events are dropped, counted, until it does (the recording goes on)")
        case let .dropped(lines):
            messages.post("\(setting: .events): \(counted(lines, "event")) dropped: \(displayName) did not take them in time")
            emit(.eventsDropped, frame: frame, [("count", .int(Int64(lines)))])
        case let .failed(reason):
            messages.post("\(setting: .events): writing \(displayName) failed: \(reason); no more events are written there (the recording goes on)")
            if let line = Self.line(.eventsFailed, frame: frame, [("path", .string(displayName)), ("reason", .string(reason))]) {
                hook?.fire(.eventsFailed, line: line)
            }
        }
    }
}

/// `--events` cannot be opened.
public struct EventLogError: Error, Equatable {
    public let message: Phrase
}
