import CGlibcExtras
import Dispatch

/// A named non-realtime thread that runs one body to its end, and can be waited for with a
/// bound: the writer's and the loudness analysis's.
package final class WorkerThread: @unchecked Sendable {
    /// The name `top -H` and /proc/PID/task/*/comm show: at most 15 bytes, the kernel's
    /// limit (a longer one is refused and the thread keeps the process's name).
    let name: String
    private let done = DispatchSemaphore(value: 0)
    /// Set by `start`, cleared once `wait` has seen the end; main thread only.
    private var running = false

    package init(name: String) {
        precondition(name.utf8.count <= 15, "thread names are at most 15 bytes")
        self.name = name
    }

    /// Starts the thread running `body` (a detached pthread, `DetachedThread`).
    package func start(_ body: @escaping @Sendable () -> Void) {
        let name = name
        running = DetachedThread.start { [done] in
            _ = jackwave_name_thread(jackwave_this_thread(), name)
            body()
            done.signal()
        }
    }

    /// Waits up to `timeout` seconds for the body to end; true once it has (or if the thread
    /// never started). What the body did happens-before a true return.
    package func wait(timeout: Double) -> Bool {
        guard running else { return true }
        guard done.wait(timeout: .now() + timeout) == .success else { return false }
        running = false
        return true
    }
}
