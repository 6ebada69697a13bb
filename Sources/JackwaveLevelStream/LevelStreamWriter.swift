import Glibc
import JackwaveSoundFiles
import JackwaveVocabulary

/// A level stream going out to a file or stdout: rows are buffered and leave in one
/// `write(2)` per `flush()`, so a reader at the other end of a pipe sees whole rows live.
/// The first failed write (`EPIPE`, a full disk) is kept as a message; nothing follows it.
public final class LevelStreamWriter {
    public let formatter: LevelStreamFormatter
    /// `stdout` or the path, for messages.
    public let displayName: String
    private let fd: Int32
    /// Whether `fd` is ours to close, and not yet closed.
    private var ownsDescriptor: Bool
    private var pending = ""
    /// The first write failure, as the line to show the user.
    public private(set) var failure: String?

    /// Creates `path` (`-` is stdout) through `CreatedFile` and writes the header. The caller has
    /// already checked the path (`OutputPath.check`).
    public convenience init(path: String, formatter: LevelStreamFormatter, policy: CreatedFile.Policy = .new,
                            option: Setting = .levels) throws(LevelStreamError) {
        if path == "-" {
            try self.init(descriptor: 1, ownsDescriptor: false, displayName: "stdout", formatter: formatter)
            return
        }
        let fd: Int32
        do throws(CreatedFileError) { fd = try CreatedFile.open(path, policy: policy) } catch {
            throw LevelStreamError(message: "\(setting: option) \(error.message)")
        }
        try self.init(descriptor: fd, ownsDescriptor: true, displayName: path, formatter: formatter)
    }

    /// Writes to an open descriptor (`ownsDescriptor`: closed by `close`), starting with the header.
    init(descriptor: Int32, ownsDescriptor: Bool, displayName: String, formatter: LevelStreamFormatter) throws(LevelStreamError) {
        self.formatter = formatter
        fd = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.displayName = displayName
        pending = formatter.header
        if let message = flush() { throw LevelStreamError(message: Phrase(verbatim: message)) }
    }

    deinit { if ownsDescriptor { Glibc.close(fd) } }

    /// Bytes formatted but not yet written.
    public var pendingCount: Int { pending.utf8.count }

    /// Formats rows into the buffer (no I/O).
    public func append(_ rows: [LevelRow]) {
        guard failure == nil else { return }
        for row in rows { formatter.append(row, to: &pending) }
    }

    /// Writes the buffer with one `write(2)` (more only if the kernel takes part of it);
    /// returns the failure message if the stream is broken.
    @discardableResult
    public func flush() -> String? {
        guard failure == nil else { return failure }
        guard !pending.isEmpty else { return nil }
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
            failure = "levels: writing \(displayName) failed: \(String(cString: strerror(error)))"
        }
        return failure
    }

    /// Flushes and closes (a file; stdout stays open). Returns the failure, if any.
    @discardableResult
    public func close() -> String? {
        let result = flush()
        if ownsDescriptor {
            ownsDescriptor = false
            if Glibc.close(fd) != 0 && failure == nil {
                failure = "levels: closing \(displayName) failed: \(String(cString: strerror(errno)))"
            }
        }
        return failure ?? result
    }
}
