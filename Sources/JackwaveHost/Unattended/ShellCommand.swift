import CGlibcExtras
import Dispatch
import FoundationEssentials
import Glibc

/// One command line run through `/bin/sh -c`, waited for with a bound: what `--on-event` runs
/// (`EventHook`). Written to be the one spawner of jackwave's hooks (`--on-close` has its own
/// today, `CloseHook.runCommand`, being hardened separately; the two can meet here):
/// - stdin is the given bytes (through a pipe) or /dev/null; stdout goes to jackwave's stderr,
///   so nothing mixes into `--levels -` or `--events -`;
/// - the child gets an empty signal mask and default actions for the signals jackwave ignores
///   or traps, and a **process group of its own**, so that Ctrl-C on jackwave's terminal does
///   not reach it and a timeout can end it with all its children;
/// - the child closes every descriptor from 3 up before it runs (`closefrom`, whatever a
///   library opened without close-on-exec), so it holds nothing of jackwave's but 0, 1, 2;
/// - past `timeout` seconds the group gets SIGTERM, and SIGKILL `graceSeconds` later.
public enum ShellCommand {
    public static let graceSeconds = 2.0

    /// Runs `/bin/sh -c SCRIPT NAME ARGUMENTS...` with `stdin`, `environment` added to
    /// jackwave's own; nil when it exits 0, else what went wrong (one line).
    public static func run(_ script: String, name: String, arguments: [String] = [], stdin: [UInt8]? = nil,
                           environment: [String: String] = [:], timeout: Double) -> String? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var input: [Int32] = [-1, -1]
        if let stdin {
            // The bytes fit the pipe whole (the caller bounds them below its 64 KiB), so the
            // write never waits for the child.
            guard stdin.count <= 60_000, jackwave_pipe_cloexec(&input) == 0 else { return "cannot make a pipe for \(name)" }
            let written = stdin.withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
            close(input[1])
            guard written == stdin.count else { close(input[0]); return "cannot hand \(name) its input" }
            posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        defer { if input[0] >= 0 { close(input[0]) } }
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        // Whatever a library left open without close-on-exec (liblo's socket, libjack's),
        // the command does not inherit.
        _ = jackwave_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for sig in [SIGINT, SIGTERM, SIGPIPE, SIGXFSZ, SIGHUP] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let words = ["/bin/sh", "-c", script, name] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        var variables = ProcessInfo.processInfo.environment
        for (key, value) in environment { variables[key] = value }
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, envp)
        guard rc == 0 else { return "cannot start /bin/sh for \(name): \(String(cString: strerror(rc)))" }
        return wait(for: child, name: name, timeout: timeout)
    }

    /// `waitpid` until `child` ends, or its group is ended past `timeout`.
    private static func wait(for child: pid_t, name: String, timeout: Double) -> String? {
        let start = DispatchTime.now().uptimeNanoseconds
        var status: Int32 = 0
        var signalled: Int32 = 0
        while true {
            let r = waitpid(child, &status, WNOHANG)
            if r == child { break }
            if r < 0 && errno != EINTR { return "\(name): waitpid failed: \(String(cString: strerror(errno)))" }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if signalled == 0 && elapsed > timeout {
                kill(-child, SIGTERM)
                signalled = SIGTERM
            } else if signalled == SIGTERM && elapsed > timeout + graceSeconds {
                kill(-child, SIGKILL)
                signalled = SIGKILL
            }
            usleep(10_000)
        }
        if signalled != 0 { return "\(name) did not end within \(timeout.plainText) s and was stopped" }
        let signal = status & 0x7f
        if signal != 0 { return "\(name) was killed by signal \(signal)" }
        let code = (status >> 8) & 0xff
        return code == 0 ? nil : "\(name) exited with status \(code)"
    }
}
