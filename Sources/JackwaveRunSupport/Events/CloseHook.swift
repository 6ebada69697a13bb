import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import JackwaveVocabulary

/// `--on-close CMD`: runs `CMD PATH` after each file is finalized, on a thread of its own.
///
/// The writer thread only queues the path (a lock and a semaphore, never on the realtime
/// thread); this thread starts the command and waits for it, one file at a time, in the
/// order the files were closed, so a slow command never holds up the writer. The command
/// line is given to `/bin/sh -c` with the path as `"$1"` (so `CMD` may carry its own
/// arguments: `--on-close 'flac -s --delete-input-file'`). Its stdin is /dev/null and its
/// stdout goes to jackwave's stderr, so it never mixes into `--levels -` or `--events -`.
/// A failure is reported (a line and an `on_close_failed` event) and changes nothing else.
///
/// A hook cannot hurt the recording (`HookProcess`): it runs in a process group of its own
/// (a Ctrl-C at the terminal reaches jackwave, which stops cleanly, not the upload it
/// started), it inherits no descriptor of jackwave's but its three standard ones (the OSC
/// socket, a file being written), a relative path reaches it as `./name` (a file named
/// `-x.wav` is not an option to it), and with `--on-close-timeout` a command that runs too
/// long has its whole group stopped: SIGTERM, then SIGKILL after `killGrace` (an
/// `on_close_timeout` event).
public final class CloseHook: @unchecked Sendable {
    public let command: String
    /// Seconds a command may run (`--on-close-timeout`), nil for no bound.
    public let timeout: Double?
    /// Failures to report: the main loop moves them to the run's lines while it runs.
    public let messages = MessageQueue()
    private let events: EventLog?
    /// Paths waiting for the command, oldest first, and whether `finish` was called.
    private let queue = Mutex<(paths: [(String, Int64)], closing: Bool)>(([], false))
    private let wake = DispatchSemaphore(value: 0)
    /// Set by `stopRunning` (relaxed: a lone flag the hook thread polls): the queued
    /// commands are dropped, the running one stopped.
    private let abandoned = Atomic<Bool>(false)
    /// A year: "until the last command ends", for `WorkerThread.wait`'s bound.
    private static let noBound = 365.0 * 86400
    /// Seconds between SIGTERM and SIGKILL for a command past its timeout.
    public static let killGrace = 2.0
    private let thread = WorkerThread(name: "jackwave-hook")
    /// Told each path once its command has run (retention keeps the file until then).
    private let ran: (@Sendable (String) -> Void)?

    public init(command: String, events: EventLog?, timeout: Double? = nil, ran: (@Sendable (String) -> Void)? = nil) {
        self.command = command
        self.events = events
        self.timeout = timeout
        self.ran = ran
    }

    /// Starts the thread.
    public func start() {
        thread.start { [self] in run() }
    }

    /// Paths waiting at most: an hour of one-second pieces, as the file finisher's queue
    /// (`FileFinisher.queueCapacity`). A command that hangs without `--on-close-timeout`
    /// holds its queue, never the recording; the files past the bound get no command.
    public static let queueLimit = 3600

    /// Queues `path` (its last frame at `frame` on the run's timeline, for the event), or,
    /// with `queueLimit` paths waiting, gives it no command: said, an `on_close_failed`
    /// event, and retention told it is done with. Any thread but the realtime one.
    public func fileClosed(_ path: String, frame: Int64) {
        let queued = queue.withLock { q in
            guard q.paths.count < Self.queueLimit else { return false }
            q.paths.append((path, frame))
            return true
        }
        guard queued else {
            let reason = "\(Self.queueLimit) files were waiting for the command; not run for this one"
            messages.post("\(setting: .onClose): \(reason): \(path) (recording goes on)")
            events?.emit(.onCloseFailed, frame: frame, [("path", .string(path)), ("reason", .string(reason))])
            ran?(path)
            return
        }
        wake.signal()
    }

    /// Lets every queued command run to its end, then stops the thread. `giveUp`, polled
    /// while waiting (a second Ctrl-C or SIGTERM), stops the running command's group and
    /// drops the rest: jackwave's own ending never waits on a hook it was told not to.
    public func finish(giveUp: () -> Bool = { false }) {
        queue.withLock { $0.closing = true }
        wake.signal()
        while !thread.wait(timeout: 0.1) {
            if giveUp() {
                stopRunning()
                _ = thread.wait(timeout: Self.noBound)
                return
            }
        }
    }

    /// Stops the running command's process group (SIGTERM, SIGKILL after `killGrace`) and
    /// drops the queued ones. Any thread: the hook thread, polling, does the stopping.
    public func stopRunning() {
        abandoned.store(true, ordering: .relaxed)
    }

    private func run() {
        while true {
            wake.wait()
            while let (path, frame) = queue.withLock({ $0.paths.isEmpty ? nil : $0.paths.removeFirst() }) {
                defer { ran?(path) }
                if abandoned.load(ordering: .relaxed) {
                    messages.post("\(setting: .onClose): not run for \(path) (jackwave was stopped while waiting for the hooks)")
                    continue
                }
                let outcome = HookProcess.run(command, path: path, timeout: timeout, grace: Self.killGrace,
                                              stop: { self.abandoned.load(ordering: .relaxed) })
                switch outcome {
                case .succeeded:
                    break
                case let .failed(failure):
                    messages.post("\(setting: .onClose): \(failure) (recording goes on)")
                    events?.emit(.onCloseFailed, frame: frame, [("path", .string(path)), ("reason", .string(failure))])
                case let .timedOut(seconds, signal):
                    messages.post("\(setting: .onClose): \(command) \(path) ran past \(seconds.plainText) s; its process group was stopped (SIG\(signal))")
                    events?.emit(.onCloseTimeout, frame: frame, [("path", .string(path)), ("seconds", .double(seconds)),
                                                                 ("signal", .string(signal))])
                case let .stopped(signal):
                    messages.post("\(setting: .onClose): \(command) \(path) was stopped (SIG\(signal)): jackwave was told to stop while waiting for it")
                }
            }
            if queue.withLock({ $0.closing && $0.paths.isEmpty }) { return }
        }
    }
}
