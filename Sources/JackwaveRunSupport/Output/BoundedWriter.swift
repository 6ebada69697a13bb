import Dispatch
import Glibc
import Synchronization

/// Lines going out to a file or a pipe on a thread of their own: the level stream and the
/// events file of a run, whose writers (the main thread, the audio writer) must never wait
/// for a disk or a reader.
///
/// `write` copies whole lines into a queue of at most `capacity` bytes and returns: a lock
/// held for a copy, nothing else. The thread hands the queue to `write(2)`. A reader that
/// stops reading (a pipe on stdout) blocks only that thread; the queue fills, and lines
/// that find it full are dropped whole and counted, never cut. The first write error (a
/// full disk, a reader gone) ends the output: said once (`Report.failed`), nothing written
/// after it. At the end, `close` waits a bound for the queue to leave, no more.
public final class BoundedWriter: @unchecked Sendable {
    /// What the owner is told, to say it (a line, an event).
    public enum Report: Sendable, Equatable {
        /// The queue was full: lines are dropped from now until it has room again. Told on
        /// the thread whose line was dropped, once per run of drops.
        case dropping
        /// That run of drops is over (the queue had room again, or the output closed):
        /// `lines` were dropped in it. Told on the output's thread, or by `close`.
        case dropped(lines: Int)
        /// A write failed (the reason, as `strerror` says it): nothing more is written.
        /// Told once, on the output's thread.
        case failed(String)
    }

    /// Bytes queued at most: 4 MiB, seconds to minutes of level rows or events, and a bound
    /// on what a stalled reader costs in memory.
    public static let defaultCapacity = 4 << 20
    /// How long `close` waits, by default, for what is queued to leave.
    public static let closeSeconds = 2.0

    public let capacity: Int
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let report: @Sendable (Report) -> Void
    /// The queue; the lines dropped in the run of drops under way, if one is; whether
    /// `close` was called. `accepted` counts every byte queued, for `flush`.
    private struct Queue {
        var bytes: [UInt8] = []
        var droppedLines = 0
        var dropping = false
        var closing = false
        var accepted = 0
    }
    private let queue = Mutex(Queue())
    /// Bytes written (or given up on after a failure), read by `flush` (`.releasing` /
    /// `.acquiring`: whoever sees a count sees those bytes handed to the kernel).
    private let settled = Atomic<Int>(0)
    /// Set once a write failed (relaxed: a lone flag; the reason is under `failureText`).
    private let failed = Atomic<Bool>(false)
    private let failureText = Mutex<String?>(nil)
    /// Lines dropped in all, for the summary (relaxed: a lone counter).
    private let droppedTotal = Atomic<Int>(0)
    private let wake = DispatchSemaphore(value: 0)
    private let thread: WorkerThread
    /// Whether the thread has ended; main thread's, set by `close`.
    private var ended = false

    /// Writes to `descriptor` (closed at the end when `ownsDescriptor`) from a thread named
    /// `threadName` (at most 15 bytes); `report` is told what to say.
    public init(descriptor: Int32, ownsDescriptor: Bool, threadName: String, capacity: Int = defaultCapacity,
                report: @escaping @Sendable (Report) -> Void) {
        fd = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.capacity = capacity
        self.report = report
        thread = WorkerThread(name: threadName)
        thread.start { [self] in run() }
    }

    /// The first write error, once there is one.
    public var failure: String? { failureText.withLock { $0 } }

    /// Lines dropped so far, because the queue was full.
    public var droppedLines: Int { droppedTotal.load(ordering: .relaxed) }

    /// Queues `bytes` (whole lines), or drops them all if the queue has no room for them;
    /// true if queued. Any thread but the realtime one; never waits for the output.
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count > 0, !failed.load(ordering: .relaxed) else { return false }
        var startedDropping = false
        let queued = queue.withLock { q in
            guard !q.closing else { return false }
            guard q.bytes.count + bytes.count <= capacity else {
                let lines = max(1, Self.lines(in: bytes))
                q.droppedLines += lines
                droppedTotal.add(lines, ordering: .relaxed)
                if !q.dropping { (q.dropping, startedDropping) = (true, true) }
                return false
            }
            q.bytes.append(contentsOf: bytes)
            q.accepted += bytes.count
            return true
        }
        if queued { wake.signal() }
        if startedDropping { report(.dropping) }
        return queued
    }

    /// Queues `bytes`; see `write(_:)` above.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { write($0) } }

    /// Waits up to `timeout` seconds until every byte queued before the call has been
    /// written (or given up on after a failure); true once it has.
    public func flush(timeout: Double) -> Bool {
        let target = queue.withLock { $0.accepted }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while settled.load(ordering: .acquiring) < target {
            guard DispatchTime.now().uptimeNanoseconds < deadline else { return false }
            usleep(1000)
        }
        return true
    }

    /// Writes what is queued, waiting at most `timeout` seconds, then ends the thread and
    /// closes the descriptor if it is ours. What could not leave in time (a reader that
    /// stopped reading) is counted as dropped and told. True if everything queued was
    /// written. Once; the owner's thread.
    @discardableResult
    public func close(timeout: Double = closeSeconds) -> Bool {
        guard !ended else { return failure == nil }
        queue.withLock { $0.closing = true }
        wake.signal()
        guard thread.wait(timeout: timeout) else {
            // The thread is stuck in write(2) on a reader that does not read: what waits is
            // lost with the process. The descriptor stays open under that write.
            let (dropped, waiting) = queue.withLock { q in
                defer { (q.bytes, q.droppedLines, q.dropping) = ([], 0, false) }
                return (q.droppedLines, Self.lines(in: q.bytes))
            }
            droppedTotal.add(waiting, ordering: .relaxed)
            ended = true
            if dropped + waiting > 0 { report(.dropped(lines: dropped + waiting)) }
            return false
        }
        ended = true
        if ownsDescriptor { _ = Glibc.close(fd) }
        return failure == nil
    }

    private func run() {
        var chunk: [UInt8] = []
        while true {
            wake.wait()
            while true {
                var closing = false
                var droppedRun: Int?
                queue.withLock { q in
                    swap(&chunk, &q.bytes)
                    closing = q.closing
                    if q.dropping {
                        droppedRun = q.droppedLines
                        (q.dropping, q.droppedLines) = (false, 0)
                    }
                }
                if let droppedRun { report(.dropped(lines: droppedRun)) }
                if chunk.isEmpty {
                    if closing { return }
                    break
                }
                if let error = writeAll(chunk) {
                    fail(error)
                    return
                }
                settled.add(chunk.count, ordering: .releasing)
                chunk.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The first failure: kept, told, and everything queued given up on.
    private func fail(_ error: Int32) {
        let reason = String(cString: strerror(error))
        failureText.withLock { $0 = reason }
        failed.store(true, ordering: .relaxed)
        let given = queue.withLock { q in
            defer { q.bytes = [] }
            return q.accepted
        }
        settled.store(given, ordering: .releasing)
        report(.failed(reason))
    }

    /// The lines in `bytes`: its newlines.
    private static func lines(in bytes: some Sequence<UInt8>) -> Int {
        bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    /// `write(2)` until every byte is out; the error, if one stopped it.
    private func writeAll(_ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return errno }
                if n == 0 { return EIO }
                done += n
            }
            return nil
        }
    }
}
