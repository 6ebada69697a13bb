import Dispatch

/// A thread's nap that ends early when another thread has news: a semaphore whose signals
/// do not pile up beyond one wake-up per nap (so a producer signalling at every write never
/// makes the sleeper spin). Not for the realtime thread.
final class WakeUp: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// Wakes the sleeper (or the next nap).
    func signal() { semaphore.signal() }

    /// Sleeps up to `seconds`, less if signalled; then forgets signals sent meanwhile.
    func nap(_ seconds: Double) {
        _ = semaphore.wait(timeout: .now() + .microseconds(Int(seconds * 1e6)))
        while semaphore.wait(timeout: .now()) == .success {}
    }
}
