import Glibc
import Synchronization

/// The bytes that undo what the meter does to the terminal: show the cursor, turn line
/// wrap back on, end any synchronized update, and start a fresh line.
private let restoreSequence: StaticString = "\u{1B}[?2026l\u{1B}[?25h\u{1B}[?7h\n"
/// Whether the terminal currently needs restoring, and on which descriptor.
private let armed = Atomic<Bool>(false)
private let armedDescriptor = Atomic<Int32>(2)
/// The handlers in place before ours, indexed by signal number, so that after restoring
/// the terminal the signal does exactly what it would have done (Swift's crash backtrace,
/// or the default action). Allocated once, before any handler can run.
nonisolated(unsafe) private let previousHandlers: UnsafeMutablePointer<__sighandler_t?> = {
    let p = UnsafeMutablePointer<__sighandler_t?>.allocate(capacity: 65)
    p.initialize(repeating: nil, count: 65)
    return p
}()

/// The terminal settings `KeyboardInput` replaced (raw keys for the tone), to put back if a
/// signal ends the process; allocated once, before any handler can run.
nonisolated(unsafe) private let savedTermios: UnsafeMutablePointer<termios> = {
    let p = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    p.initialize(to: termios())
    return p
}()
/// Whether stdin's settings need putting back.
private let termiosArmed = Atomic<Bool>(false)

/// Signals that end the process by default and that jackwave does not otherwise handle
/// (SIGINT and SIGTERM are `SignalTrap`'s: they end the run normally, which restores).
/// SIGSEGV, SIGBUS, SIGILL and SIGFPE are faults: returning from the handler re-executes
/// the faulting instruction, which then reaches the previous handler with the original
/// context; the others are raised again once the previous handler is back.
private let deathSignals: [Int32] = [SIGHUP, SIGQUIT, SIGABRT, SIGTRAP, SIGSEGV, SIGBUS, SIGILL, SIGFPE]

/// Restores the terminal if jackwave dies by a signal while the meter has the cursor
/// hidden and line wrap off, then lets the signal take its course.
///
/// The handler does only async-signal-safe things: atomic exchanges, `tcsetattr(3)`, one
/// `write(2)` of a static string, `signal(2)` and `raise(3)`.
enum TerminalRestore {
    nonisolated(unsafe) private static var installed = false

    /// Arms the restore for `fd`; installs the handlers the first time. Main thread.
    static func arm(fd: Int32) {
        armedDescriptor.store(fd, ordering: .relaxed)
        armed.store(true, ordering: .relaxed)
        installHandlers()
    }

    /// Disarms (the terminal has been restored the normal way). Main thread.
    static func disarm() {
        armed.store(false, ordering: .relaxed)
        uninstallIfIdle()
    }

    /// Arms the restore of stdin's settings (`tcsetattr`, async-signal-safe). Main thread.
    static func armKeyboard(_ saved: termios) {
        savedTermios.pointee = saved
        termiosArmed.store(true, ordering: .relaxed)
        installHandlers()
    }

    /// Disarms it (the settings have been put back the normal way). Main thread.
    static func disarmKeyboard() {
        termiosArmed.store(false, ordering: .relaxed)
        uninstallIfIdle()
    }

    private static func installHandlers() {
        guard !installed else { return }
        installed = true
        _ = restoreSequence.utf8Start  // Initialise every global before a handler can use it.
        _ = previousHandlers
        _ = savedTermios
        for sig in deathSignals {
            let previous = signal(sig, handler)
            previousHandlers[Int(sig)] = previous
            // An ignored signal (`nohup`) stays ignored: it will not end the process.
            if unsafeBitCast(previous, to: Int.self) == 1 { signal(sig, previous) }
        }
    }

    /// Puts back the previous handlers once nothing is armed.
    private static func uninstallIfIdle() {
        guard installed, !armed.load(ordering: .relaxed), !termiosArmed.load(ordering: .relaxed) else { return }
        installed = false
        for sig in deathSignals { signal(sig, previousHandlers[Int(sig)]) }
    }

    private static let handler: @convention(c) (Int32) -> Void = { sig in
        if termiosArmed.exchange(false, ordering: .relaxed) { tcsetattr(0, TCSANOW, savedTermios) }
        if armed.exchange(false, ordering: .relaxed) {
            _ = write(armedDescriptor.load(ordering: .relaxed), restoreSequence.utf8Start,
                      restoreSequence.utf8CodeUnitCount)
        }
        signal(sig, previousHandlers[Int(sig)])
        if sig != SIGSEGV && sig != SIGBUS && sig != SIGILL && sig != SIGFPE { raise(sig) }
    }
}
