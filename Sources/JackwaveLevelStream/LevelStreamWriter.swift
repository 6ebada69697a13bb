import Glibc
import JackwaveRunSupport
import JackwaveSoundFiles
import Synchronization
import JackwaveVocabulary

/// A level stream going out to a file or stdout: rows are buffered and leave whole, one
/// `flush()` at a time, so that a reader at the other end of a pipe sees whole rows live.
///
/// Offline (`jackwave levels`) each flush is a `write(2)` that waits for the reader, as a
/// filter's output should. Live (`queued`, a run's `--levels`) the rows go through a
/// `BoundedWriter`: the main thread, which drains the meter's ring and watches the server,
/// never waits for a disk or a reader; rows a stalled reader leaves no room for are dropped
/// and counted, and what happened comes back through `takeReports`.
/// The first failed write (`EPIPE`, a full disk) is kept as a message; nothing follows it.
public final class LevelStreamWriter {
    public let formatter: LevelStreamFormatter
    /// `stdout` or the path, for messages.
    public let displayName: String
    private let fd: Int32
    /// Whether `fd` is ours to close, and not yet closed.
    private var ownsDescriptor: Bool
    /// The live stream's output thread; nil offline.
    private let queue: BoundedWriter?
    /// What the live output reported, waiting for `takeReports` (at most a few: a failure
    /// is told once, and each run of drops twice).
    private let reports: Reports
    private var pending = ""
    /// The first write failure offline, as the line to show the user.
    private var directFailure: String?

    /// Creates `path` (`-` is stdout) through `CreatedFile` and writes the header; `queued`
    /// for a run's live stream. The caller has already checked the path (`OutputPath.check`).
    public convenience init(path: String, formatter: LevelStreamFormatter, policy: CreatedFile.Policy = .new,
                            option: Setting = .levels, queued: Bool = false) throws(LevelStreamError) {
        if path == "-" {
            try self.init(descriptor: 1, ownsDescriptor: false, displayName: "stdout", formatter: formatter, queued: queued)
            return
        }
        let fd: Int32
        do throws(CreatedFileError) { fd = try CreatedFile.open(path, policy: policy) } catch {
            throw LevelStreamError(message: "\(setting: option) \(error.message)")
        }
        try self.init(descriptor: fd, ownsDescriptor: true, displayName: path, formatter: formatter, queued: queued)
    }

    /// Writes to an open descriptor (`ownsDescriptor`: closed by `close`), starting with the
    /// header: at once offline (its failure thrown), through the queue when `queued`.
    init(descriptor: Int32, ownsDescriptor: Bool, displayName: String, formatter: LevelStreamFormatter,
         queued: Bool = false) throws(LevelStreamError) {
        self.formatter = formatter
        fd = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.displayName = displayName
        let reports = Reports()
        self.reports = reports
        if queued {
            queue = BoundedWriter(descriptor: descriptor, ownsDescriptor: ownsDescriptor, threadName: "jackwave-levels",
                                  report: { report in reports.list.withLock { $0.append(report) } })
            // The queue closes the descriptor.
            self.ownsDescriptor = false
        } else {
            queue = nil
        }
        pending = formatter.header
        // Live, a failure comes back as a report whenever the queue's thread meets it, which
        // may already be now: never thrown here, or the run would end on a side job's error.
        if let message = flush(), queue == nil { throw LevelStreamError(message: Phrase(verbatim: message)) }
    }

    deinit {
        queue?.close()
        if ownsDescriptor { Glibc.close(fd) }
    }

    /// Bytes formatted but not yet written.
    public var pendingCount: Int { pending.utf8.count }

    /// The first write failure, as the line to show the user.
    public var failure: String? {
        directFailure ?? queue?.failure.map { "levels: writing \(displayName) failed: \($0)" }
    }

    /// Rows dropped because the reader did not take them (live only).
    public var droppedRows: Int { queue?.droppedLines ?? 0 }

    /// What the live output told since the last call, oldest first.
    public func takeReports() -> [BoundedWriter.Report] {
        reports.list.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }

    /// The reports' mailbox, shared with the output's thread.
    private final class Reports: Sendable {
        let list = Mutex<[BoundedWriter.Report]>([])
    }

    /// Formats rows into the buffer (no I/O).
    public func append(_ rows: [LevelRow]) {
        guard failure == nil else { return }
        for row in rows { formatter.append(row, to: &pending) }
    }

    /// Writes the buffer (offline: one `write(2)`, more only if the kernel takes part of it;
    /// live: queued, never waiting); returns the failure message if the stream is broken.
    @discardableResult
    public func flush() -> String? {
        guard failure == nil else { return failure }
        guard !pending.isEmpty else { return nil }
        if let queue {
            _ = pending.withUTF8 { queue.write(UnsafeRawBufferPointer($0)) }
            pending.removeAll(keepingCapacity: true)
            return failure
        }
        let error: Int32? = pending.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return errno }
                if n == 0 { return EIO }
                offset += n
            }
            return nil
        }
        pending.removeAll(keepingCapacity: true)
        if let error {
            directFailure = "levels: writing \(displayName) failed: \(String(cString: strerror(error)))"
        }
        return failure
    }

    /// Flushes and closes (a file; stdout stays open): live, waiting at most
    /// `BoundedWriter.closeSeconds` for the queue to leave. Returns the failure, if any.
    @discardableResult
    public func close() -> String? {
        let result = flush()
        if let queue {
            queue.close()
            return failure ?? result
        }
        if ownsDescriptor {
            ownsDescriptor = false
            if Glibc.close(fd) != 0 && failure == nil {
                directFailure = "levels: closing \(displayName) failed: \(String(cString: strerror(errno)))"
            }
        }
        return failure ?? result
    }
}
