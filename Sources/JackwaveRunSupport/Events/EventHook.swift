import Dispatch
import FoundationEssentials
import Synchronization
import JackwaveVocabulary

/// `--on-event CMD`: runs `CMD` through `/bin/sh -c` for each event a person may have to act
/// on (`RunEventKind.runsEventHook`: dead air, clipping, a server or stream lost and back,
/// retention's deletions, a clock step, a failed `--on-close`, the end), with the event's
/// JSON line (as `--events` writes it) on stdin and `JACKWAVE_EVENT` set to its kind, so that
/// `--on-event 'mail -s "jackwave: $JACKWAVE_EVENT" ops@example.org'` or an SNMP trap needs no
/// parsing at all.
///
/// Commands run one at a time, in order, on a thread of their own (`HookProcess`), each
/// bounded by `timeout`; events that come faster wait in a queue of `queueLimit`, and beyond
/// it are dropped and counted (a line says so). A failure is a line; nothing else changes.
/// At the end of the run the commands still queued (the `stopped` event's among them) get
/// `finishSeconds` in all: then the running one's group is stopped and the rest dropped,
/// said, so that a hung command never holds the end of the run.
public final class EventHook: @unchecked Sendable {
    public let command: String
    /// Seconds a command may take before its process group is ended.
    public let timeout: Double
    /// `timeout` unless told otherwise: a minute, for a mail or a trap that must get through.
    public static let defaultTimeout = 60.0
    /// From SIGTERM to SIGKILL, for a command past its bound.
    static let graceSeconds = 2.0
    /// Events waiting at most; more are dropped, counted.
    public static let queueLimit = 64
    /// Seconds the end of the run gives the commands still queued, in all.
    public static let finishSeconds = 10.0
    /// Set when the end stops waiting (relaxed: a lone flag the hook thread polls): the
    /// running command is stopped, the queued ones dropped.
    private let abandoned = Atomic<Bool>(false)
    /// Lines to say: failures and drops; the run moves them to its output.
    public let messages = MessageQueue()
    private let queue = Mutex<(events: [(kind: String, line: [UInt8])], dropped: Int, closing: Bool)>(([], 0, false))
    private let wake = DispatchSemaphore(value: 0)
    private let thread = WorkerThread(name: "jackwave-event")

    public init(command: String, timeout: Double = defaultTimeout) {
        self.command = command
        self.timeout = timeout
    }

    public func start() { thread.start { [self] in run() } }

    /// Queues the command for an event (`EventLog.line`'s bytes); kinds that do not run the
    /// hook are ignored. Any thread but the realtime one; never waits.
    public func fire(_ kind: RunEventKind, line: Data) {
        guard kind.runsEventHook else { return }
        let accepted = queue.withLock { q in
            guard q.events.count < Self.queueLimit else { q.dropped += 1; return false }
            q.events.append((kind.rawValue, Array(line.prefix(16_384))))
            return true
        }
        if accepted { wake.signal() }
    }

    /// Runs what is queued, then stops the thread: waits at most `within` seconds in all
    /// (`finishSeconds`), then stops the running command's group (SIGTERM, SIGKILL after
    /// the grace) and drops the rest, said.
    public func finish(within: Double = finishSeconds) {
        queue.withLock { $0.closing = true }
        wake.signal()
        if thread.wait(timeout: within) { return }
        abandoned.store(true, ordering: .relaxed)
        let dropped = queue.withLock { q in
            defer { q.events.removeAll() }
            return q.events.count
        }
        messages.post("\(setting: .onEvent): the commands still running at the end were given \(within.plainText) s; the last was stopped"
                      + (dropped > 0 ? " and \(counted(dropped, "event")) more not handed to it" : ""))
        _ = thread.wait(timeout: Self.graceSeconds + 1)
    }

    private func run() {
        while true {
            _ = wake.wait(timeout: .now() + .milliseconds(500))
            while let (kind, line) = queue.withLock({ $0.events.isEmpty ? nil : $0.events.removeFirst() }) {
                switch HookProcess.run(command, name: "jackwave-on-event", arguments: [], stdin: line,
                                       environment: ["JACKWAVE_EVENT": kind], label: "jackwave-on-event",
                                       timeout: timeout, grace: Self.graceSeconds,
                                       stop: { self.abandoned.load(ordering: .relaxed) }) {
                case .succeeded: break
                case let .failed(failure): messages.post("\(setting: .onEvent) (\(kind)): \(failure)")
                case .timedOut:
                    messages.post("\(setting: .onEvent) (\(kind)): jackwave-on-event did not end within \(timeout.plainText) s and was stopped")
                case let .stopped(signal):
                    messages.post("\(setting: .onEvent) (\(kind)): jackwave-on-event was stopped (SIG\(signal)) at the end of the run")
                }
            }
            let (dropped, done) = queue.withLock { q in defer { q.dropped = 0 }; return (q.dropped, q.closing && q.events.isEmpty) }
            if dropped > 0 { messages.post("\(setting: .onEvent): \(dropped) events came faster than the command ran and were not handed to it") }
            if done { return }
        }
    }
}
