import Dispatch
import Synchronization

/// A named thread that makes a pass every interval until stopped, then one last pass: the
/// readers that follow the callback on their own, whose work is whatever has arrived (the
/// MIDI-only writer, the LTC reader). A stop wakes it at once.
package final class PollingThread: @unchecked Sendable {
    private let thread: WorkerThread
    private let interval: DispatchTimeInterval
    private let stopping = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)

    package init(name: String, passMicroseconds: Int) {
        thread = WorkerThread(name: name)
        interval = .microseconds(passMicroseconds)
    }

    /// Starts the passes; `pass(last)` is told whether it is the last one.
    package func start(_ pass: @escaping @Sendable (_ last: Bool) -> Void) {
        thread.start { [self] in
            while true {
                // Read before the pass: a stop asked during it gets one more, whole pass.
                let last = stopping.load(ordering: .relaxed)
                pass(last)
                if last { return }
                _ = wakeUp.wait(timeout: .now() + interval)
            }
        }
    }

    /// Whether a stop has been asked for (any thread).
    package var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Asks for the last pass and waits up to `timeout` seconds for it; true once it is done.
    package func stop(timeout: Double) -> Bool {
        stopping.store(true, ordering: .relaxed)
        wakeUp.signal()
        return thread.wait(timeout: timeout)
    }
}
