import CGlibcExtras
import FoundationEssentials
import Glibc

/// One run of a hook's command (`--on-close`, `--on-event`), started so that it cannot hurt
/// the recording, and waited for with a bound: the one place jackwave starts a process.
enum HookProcess {
    /// How a run ended.
    enum Outcome: Equatable {
        case succeeded
        /// Exited non-zero, killed by a signal, or could not start: what went wrong.
        case failed(String)
        /// Ran past `timeout` seconds; its group got SIGTERM, and SIGKILL if it outlived the
        /// grace (the last signal sent: "TERM" or "KILL").
        case timedOut(seconds: Double, signal: String)
        /// `stop` asked for it to end; the last signal sent.
        case stopped(signal: String)
    }

    /// Polls of the child's state: a hook thread's only job is this wait.
    static let pollMicroseconds: UInt32 = 20_000

    /// `--on-close`'s run: `/bin/sh -c 'CMD "$1"' jackwave-on-close PATH` (see the general
    /// `run` below), the path as `./path` when relative, so that `-x.wav` is no option to it.
    static func run(_ command: String, path: String, timeout: Double?, grace: Double,
                    stop: () -> Bool = { false }) -> Outcome {
        run(command + " \"$1\"", name: "jackwave-on-close", arguments: [argument(for: path)], label: "\(command) \(path)",
            timeout: timeout, grace: grace, stop: stop)
    }

    /// `posix_spawn` of `/bin/sh -c SCRIPT NAME ARGUMENTS…`, then waits; what every hook of
    /// jackwave's runs through (`--on-close`, `--on-event`):
    /// - stdin from the given bytes (through a pipe; at most 60,000, written without
    ///   blocking, so the write never waits for the child: a pipe the system made smaller
    ///   than that, for a user past `pipe-user-pages-soft`, is a failure, not a hang) or
    ///   /dev/null; stdout onto jackwave's stderr, so nothing mixes
    ///   into `--levels -` or `--events -`; `environment` added to jackwave's own;
    /// - a process group of its own (`POSIX_SPAWN_SETPGROUP`, 0: its pid), so a signal to
    ///   jackwave's group (Ctrl-C) does not reach it and its whole group can be stopped;
    /// - every descriptor but 0, 1 and 2 closed (`posix_spawn_file_actions_addclosefrom_np(3)`),
    ///   whatever a library left open without close-on-exec;
    /// - an empty signal mask and default actions for the signals jackwave ignores or traps
    ///   (an ignored SIGPIPE would otherwise be inherited across exec).
    /// Past `timeout` seconds (or when `stop` says so) the group gets SIGTERM, then SIGKILL
    /// `grace` seconds later; the shell is reaped either way. `label` names it in failures.
    static func run(_ script: String, name: String, arguments: [String], stdin: [UInt8]? = nil,
                    environment: [String: String] = [:], label: String, timeout: Double?, grace: Double,
                    stop: () -> Bool = { false }) -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var input: [Int32] = [-1, -1]
        if let stdin {
            guard stdin.count <= 60_000, jackwave_pipe_cloexec(&input) == 0 else { return .failed("cannot make a pipe for \(label)") }
            _ = fcntl(input[1], F_SETFL, fcntl(input[1], F_GETFL) | O_NONBLOCK)
            let written = stdin.withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
            close(input[1])
            guard written == stdin.count else { close(input[0]); return .failed("cannot hand \(label) its input") }
            posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        defer { if input[0] >= 0 { close(input[0]) } }
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        jackwave_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ, SIGUSR1] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let words: [String] = ["/bin/sh", "-c", script, name] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        var variables = ProcessInfo.processInfo.environment
        for (key, value) in environment { variables[key] = value }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.isEmpty ? [] : variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = envp.isEmpty ? posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, environ)
            : posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, envp)
        guard rc == 0 else { return .failed("cannot start /bin/sh for \(label): \(String(cString: strerror(rc)))") }

        let started = monotonicSeconds()
        var sent: (signal: Int32, at: Double)?
        var status: Int32 = 0
        while true {
            let r = waitpid(child, &status, WNOHANG)
            if r == child { break }
            if r < 0 {
                guard errno == EINTR else { return .failed("\(label): waitpid failed: \(String(cString: strerror(errno)))") }
                continue
            }
            let now = monotonicSeconds()
            if let (signal, at) = sent {
                if signal == SIGTERM && now - at >= grace {
                    kill(-child, SIGKILL)
                    sent = (SIGKILL, now)
                }
            } else if (timeout.map { now - started >= $0 } ?? false) || stop() {
                kill(-child, SIGTERM)
                sent = (SIGTERM, now)
            }
            usleep(pollMicroseconds)
        }
        // The shell is gone; anything it left in its group goes with it.
        if sent != nil { kill(-child, SIGKILL) }
        if let (signal, _) = sent {
            let name = signal == SIGKILL ? "KILL" : "TERM"
            if let timeout, monotonicSeconds() - started >= timeout { return .timedOut(seconds: timeout, signal: name) }
            return .stopped(signal: name)
        }
        let signal = status & 0x7f
        if signal != 0 { return .failed("\(label) was killed by signal \(signal)") }
        let code = (status >> 8) & 0xff
        return code == 0 ? .succeeded : .failed("\(label) exited with status \(code)")
    }

    /// The path as the command's argument: `./path` when relative, so it never reads as an option.
    static func argument(for path: String) -> String {
        path.hasPrefix("/") || path.hasPrefix("./") || path.hasPrefix("../") ? path : "./" + path
    }

    /// `clock_gettime(CLOCK_MONOTONIC)` in seconds.
    static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
