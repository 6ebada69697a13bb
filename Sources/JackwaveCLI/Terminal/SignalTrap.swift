import Glibc
import Synchronization

/// Counts SIGINT/SIGTERM/SIGHUP deliveries. An atomic add is async-signal-safe; the handler
/// does nothing else, and the main loop reads the count.
private let interrupts = Atomic<Int>(0)
/// Counts SIGUSR1 deliveries: each asks for a marker (the same async-signal-safe add).
private let markerSignals = Atomic<Int>(0)

/// Ctrl-C, SIGTERM and SIGHUP as a counter the main loop polls: the first asks for a clean
/// stop, the second for a quicker one. SIGHUP is a dropped ssh session or a closed terminal
/// window: without it the kernel's default ended the take unfinalized (exit 129, no summary,
/// no hooks); it now ends it as SIGTERM does.
public enum SignalTrap {
    /// The signals that stop a run.
    static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Installs the handlers. Touches the counter first, so its lazy initialisation never
    /// happens inside a signal handler. Also ignores SIGPIPE (a closed `--levels -` reader
    /// is an error to report, not a silent death) and SIGXFSZ (a file size limit becomes a
    /// write error with a message).
    public static func install() {
        interrupts.store(0, ordering: .relaxed)
        for sig in stopSignals { signal(sig) { _ in interrupts.add(1, ordering: .relaxed) } }
        markerSignals.store(0, ordering: .relaxed)
        signal(SIGUSR1) { _ in markerSignals.add(1, ordering: .relaxed) }
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        // Blocked here, on the main thread, while the threads of the run are created (JACK's
        // process and notification threads, the writer): they inherit the mask, so a signal
        // is never handled on the realtime thread. `receiveOnMainThread` then unblocks them
        // here, which also undoes a parent that handed them to us blocked.
        setMask(SIG_BLOCK)
    }

    /// Lets SIGINT, SIGTERM and SIGHUP in on the main thread; call once the run's threads exist.
    public static func receiveOnMainThread() { setMask(SIG_UNBLOCK) }

    /// Blocks them again on the main thread, before a new client's threads are created
    /// (`--reconnect`); `receiveOnMainThread` lets them in again.
    public static func holdOnMainThread() { setMask(SIG_BLOCK) }

    /// Whether SIGINT, SIGTERM or SIGHUP waits while held (`sigpending`).
    public static var isPending: Bool {
        var set = sigset_t()
        sigpending(&set)
        return stopSignals.contains { sigismember(&set, $0) == 1 }
    }

    private static func setMask(_ how: Int32) {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in stopSignals { sigaddset(&set, sig) }
        sigaddset(&set, SIGUSR1)
        pthread_sigmask(how, &set, nil)
    }

    /// A stop asked for another way (`/jackwave/stop` over OSC): counted as one more
    /// interrupt, so it does exactly what Ctrl-C does. Any thread.
    public static func interruptFromRemote() { interrupts.add(1, ordering: .relaxed) }

    /// Signals received so far.
    public static var count: Int { interrupts.load(ordering: .relaxed) }

    /// SIGUSR1s received so far: markers asked for (`kill -USR1`, from a script).
    public static var markerCount: Int { markerSignals.load(ordering: .relaxed) }
}
