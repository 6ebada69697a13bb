import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// `--on-close CMD`: runs `CMD PATH` after each file is finalized, on a thread of its own.
///
/// The writer thread only queues the path (a lock and a semaphore, never on the realtime
/// thread); this thread starts the command and waits for it, one file at a time, in the
/// order the files were closed, so a slow command never holds up the writer. The command
/// line is given to `/bin/sh -c` with the path as `"$1"` (so `CMD` may carry its own
/// arguments: `--on-close 'flac -s --delete-input-file'`). Its stdin is /dev/null and its
/// stdout goes to jackwave's stderr, so it never mixes into `--levels -` or `--events -`.
/// A failure is reported (a line and an `on_close_failed` event) and changes nothing else.
public final class CloseHook: @unchecked Sendable {
    public let command: String
    /// Failures to report: the main loop moves them to the run's lines while it runs.
    public let messages = MessageQueue()
    private let events: EventLog?
    /// Paths waiting for the command, oldest first, and whether `finish` was called.
    private let queue = Mutex<(paths: [(String, Int64)], closing: Bool)>(([], false))
    private let wake = DispatchSemaphore(value: 0)
    /// A year: "until the last command ends", for `WorkerThread.wait`'s bound.
    private static let noBound = 365.0 * 86400
    private let thread = WorkerThread(name: "jackwave-hook")
    /// Told each path once its command has run (retention keeps the file until then).
    private let ran: (@Sendable (String) -> Void)?

    public init(command: String, events: EventLog?, ran: (@Sendable (String) -> Void)? = nil) {
        self.command = command
        self.events = events
        self.ran = ran
    }

    /// Starts the thread.
    public func start() {
        thread.start { [self] in run() }
    }

    /// Queues `path` (its last frame at `frame` on the run's timeline, for the event). Any thread but the realtime one.
    public func fileClosed(_ path: String, frame: Int64) {
        queue.withLock { $0.paths.append((path, frame)) }
        wake.signal()
    }

    /// Lets every queued command run to its end, then stops the thread.
    public func finish() {
        queue.withLock { $0.closing = true }
        wake.signal()
        _ = thread.wait(timeout: Self.noBound)
    }

    private func run() {
        while true {
            wake.wait()
            while let (path, frame) = queue.withLock({ $0.paths.isEmpty ? nil : $0.paths.removeFirst() }) {
                defer { ran?(path) }
                if let failure = Self.runCommand(command, path: path) {
                    messages.post("--on-close: \(failure) (recording goes on)")
                    events?.emit(.onCloseFailed, frame: frame, [("path", .string(path)), ("reason", .string(failure))])
                }
            }
            if queue.withLock({ $0.closing && $0.paths.isEmpty }) { return }
        }
    }

    /// `posix_spawn` of `/bin/sh -c 'CMD "$1"' jackwave-on-close PATH`, then `waitpid`;
    /// nil on exit status 0, else what went wrong. The child gets an empty signal mask
    /// and default actions for the signals jackwave ignores or traps (an ignored SIGPIPE
    /// would otherwise be inherited across exec).
    static func runCommand(_ command: String, path: String) -> String? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for sig in [SIGINT, SIGTERM, SIGPIPE, SIGXFSZ] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let script = command + " \"$1\""
        let words: [String] = ["/bin/sh", "-c", script, "jackwave-on-close", path]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, environ)
        guard rc == 0 else { return "cannot start /bin/sh for \(path): \(String(cString: strerror(rc)))" }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return "\(command) \(path): waitpid failed: \(String(cString: strerror(errno)))" }
        }
        let signal = status & 0x7f
        if signal != 0 { return "\(command) \(path) was killed by signal \(signal)" }
        let code = (status >> 8) & 0xff
        return code == 0 ? nil : "\(command) \(path) exited with status \(code)"
    }
}
