import JackwaveRunSupport
import JackwaveSoundFiles

/// What a run says of its inputs' capture latency, across its connections: one `latency`
/// event per input at each connection's start and per changed input on a change; a line
/// only when it matters: at a start where a source declares one (it is then subtracted from
/// the files' time), on a change, and in the summary if it changed. A latency nobody declares
/// is said only in the files' `bext` description, so a plain recording's output stays its
/// connections and its summary. Main thread only.
final class LatencyReport {
    let events: EventLog?
    let sampleRate: Int
    /// Whether the run's files carry a `bext` time (WAV, RF64): the lines then say what it
    /// subtracts.
    let stamped: Bool
    /// The last reading, and how many changes came after a connection's first.
    private(set) var last: InputLatencies?
    private(set) var changes = 0

    init(events: EventLog?, sampleRate: Int, stamped: Bool) {
        self.events = events
        self.sampleRate = sampleRate
        self.stamped = stamped
    }

    /// A connection's first reading, taken before its frame 0: returns the line to say (nil
    /// when no connected input declares a latency) and what the files' `bext` subtracts. Its
    /// events follow the connection's `started` (`announce`).
    func started(_ latencies: InputLatencies) -> (line: String?, stamp: CaptureLatencyStamp) {
        last = latencies
        let line = latencies.stampFrames > 0 ? latencies.line(sampleRate: sampleRate, stamped: stamped) : nil
        return (line, latencies.stamp(sampleRate: sampleRate))
    }

    /// The `latency` events of a connection's first reading (each connected input), at its
    /// frame 0 on the timeline (`frame`), after its `started` event.
    func announce(frame: Int64) {
        guard let last else { return }
        emit(last, inputs: last.ranges.indices.filter { last.ranges[$0] != nil }, frame: frame)
    }

    /// A reading after a latency callback: the events of the inputs whose range changed,
    /// and the line to say; nil when nothing changed.
    func read(_ latencies: InputLatencies, frame: Int64) -> String? {
        let changed = latencies.changedInputs(from: last)
        guard !changed.isEmpty else { return nil }
        last = latencies
        changes += 1
        emit(latencies, inputs: changed, frame: frame)
        let now = latencies.line(sampleRate: sampleRate, stamped: false) ?? "no input is connected now"
        return "\(now) (changed; the files' bext time keeps the latency read at the start of the connection)"
    }

    /// The summary's line, only if the latency changed during the run (else the start said
    /// it): the last reading, and how often it changed.
    var summaryLine: String? {
        guard changes > 0, let last, let line = last.line(sampleRate: sampleRate, stamped: false) else { return nil }
        return line + " (at the end; it changed \(changes) \(changes == 1 ? "time" : "times") during the run, and each file's bext time subtracts what was read at the start of its connection)"
    }

    /// One `latency` event per input in `inputs`: its range (`min_frames`, `max_frames`) and
    /// whether anything is connected to it.
    private func emit(_ latencies: InputLatencies, inputs: [Int], frame: Int64) {
        guard let events else { return }
        for i in inputs {
            let range = latencies.ranges[i]
            events.emit(.latency, frame: frame, [("input", .string(latencies.names[i])),
                                                 ("min_frames", .int(Int64(range?.minimum ?? 0))),
                                                 ("max_frames", .int(Int64(range?.maximum ?? 0))),
                                                 ("connected", .bool(range != nil))])
        }
    }
}
