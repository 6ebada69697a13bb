import Glibc
import Synchronization

/// Counts SIGINT/SIGTERM deliveries. An atomic add is async-signal-safe; the handler does
/// nothing else, and the main loop reads the count.
private let interrupts = Atomic<Int>(0)

/// Ctrl-C and SIGTERM as a counter the main loop polls: the first asks for a clean stop,
/// the second for a quicker one.
public enum SignalTrap {
    /// Installs the handlers. Touches the counter first, so its lazy initialisation never
    /// happens inside a signal handler. Also ignores SIGPIPE (a closed `--levels -` reader
    /// is an error to report, not a silent death) and SIGXFSZ (a file size limit becomes a
    /// write error with a message).
    public static func install() {
        interrupts.store(0, ordering: .relaxed)
        signal(SIGINT) { _ in interrupts.add(1, ordering: .relaxed) }
        signal(SIGTERM) { _ in interrupts.add(1, ordering: .relaxed) }
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        // A parent may hand us these blocked (test runners, some process supervisors);
        // a recorder that cannot be stopped cleanly would lose its take to SIGKILL.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Signals received so far.
    public static var count: Int { interrupts.load(ordering: .relaxed) }
}
