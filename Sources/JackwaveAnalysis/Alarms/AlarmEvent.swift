import Glibc
import JackwaveRunSupport

/// What the dead-air and clipping detector (`SignalAlarms`) raises, with frames on the
/// recording's timeline (server frames since frame 0).
public enum AlarmEvent: Sendable, Equatable {
    /// The feed has been silent for the set length: since `since` (its first silent frame),
    /// raised at `frame` (= `since` + the length).
    case silenceStarted(frame: Int64, since: Int64)
    /// The silence that began at `since` ended at `frame`, the first frame above the level:
    /// the whole stretch, `frame − since` frames.
    case silenceEnded(frame: Int64, since: Int64)
    /// In the second of the timeline that starts at `frame`, `perInput[i]` clips began on
    /// input i + 1 (`count` in all).
    case clipping(frame: Int64, count: Int, perInput: [Int])

    /// Where it goes on the timeline (the `frame` of its `--events` line).
    public var frame: Int64 {
        switch self {
        case let .silenceStarted(frame, _), let .silenceEnded(frame, _), let .clipping(frame, _, _): frame
        }
    }

    /// Its `--events` kind.
    public var kind: RunEventKind {
        switch self {
        case .silenceStarted: .silenceStarted
        case .silenceEnded: .silenceEnded
        case .clipping: .clipping
        }
    }

    /// Its `--events` fields (beyond `event`, `time` and `frame`).
    public func fields(sampleRate: Int, settings: AlarmSettings) -> [(String, EventLog.Value)] {
        let rate = Double(sampleRate)
        switch self {
        case let .silenceStarted(_, since):
            return [("since_frame", .int(since)), ("seconds", .double(settings.silenceSeconds)),
                    ("level_db", .double(20 * log10(Double(settings.silenceLevel ?? 1))))]
        case let .silenceEnded(frame, since):
            return [("since_frame", .int(since)), ("duration", .double(Double(frame - since) / rate))]
        case let .clipping(_, count, perInput):
            return [("count", .int(Int64(count))), ("inputs", .ints(perInput.map { Int64($0) }))]
        }
    }

    /// One line for the user.
    public func line(sampleRate: Int) -> String {
        let rate = Double(sampleRate)
        let at = { (f: Int64) in String(printf: "%.3f s", Double(f) / rate) }
        switch self {
        case let .silenceStarted(_, since): return "dead air: silent since \(at(since))"
        case let .silenceEnded(frame, since):
            return "dead air ended at \(at(frame)) after \(String(printf: "%.3f", Double(frame - since) / rate)) s of silence"
        case let .clipping(frame, count, perInput):
            let which = perInput.enumerated().filter { $0.element > 0 }.map { "in_\($0.offset + 1): \($0.element)" }.joined(separator: ", ")
            return "clipping: \(count) clip\(count == 1 ? "" : "s") in the second from \(at(frame)) (\(which))"
        }
    }
}
