import CGlibcExtras
import Glibc
import JackwaveVocabulary

/// Every file jackwave creates is opened here, so that nothing already at its path is
/// followed or taken over, and a file being written is locked while it is open.
///
/// - `.new`: `O_CREAT | O_EXCL | O_NOFOLLOW`, so anything at the path (a planted dangling
///   link too) makes the open fail.
/// - `.replace`: no `O_TRUNC`; truncated only once known to be a plain file with no other
///   name, locked by us.
/// - `flock(LOCK_EX | LOCK_NB)`, held until close: a second writer of the same file fails at
///   once and changes nothing; a killed writer's lock goes with it.
/// - `O_NONBLOCK` while opening (a FIFO is refused, not waited on), and `O_CLOEXEC`: no
///   command jackwave starts inherits a file it writes.
public enum CreatedFile {
    /// What may be at the path already.
    public enum Policy: Sendable, Equatable {
        /// Nothing: the file is created, or the open fails.
        case new
        /// A plain file of ours to overwrite (`--force`); never a link, a FIFO or a device.
        case replace
    }

    /// Opens `path` for writing as `policy` says, locked; returns the descriptor (the
    /// caller closes it, which releases the lock). `mode` before the umask.
    public static func open(_ path: String, policy: Policy, mode: mode_t = 0o644) throws(CreatedFileError) -> Int32 {
        var flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        if policy == .new { flags |= O_EXCL }
        let fd = Glibc.open(path, flags, mode)
        guard fd >= 0 else { throw CreatedFileError(path: path, reason: openFailure(errno, path: path)) }
        do throws(CreatedFileError) {
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw CreatedFileError(path: path, reason: systemReason(errno)) }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw CreatedFileError(path: path, reason: "is not a regular file (jackwave writes only plain files)")
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                throw CreatedFileError(path: path, reason: errno == EWOULDBLOCK ? beingWritten : systemReason(errno))
            }
            if policy == .replace {
                guard info.st_nlink <= 1 else {
                    throw CreatedFileError(path: path, reason: "has other hard links; jackwave does not overwrite a file that has other names")
                }
                guard ftruncate(fd, 0) == 0 else { throw CreatedFileError(path: path, reason: systemReason(errno)) }
            }
            let status = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, status & ~O_NONBLOCK)
            return fd
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// Whether a live writer holds `path` (its `flock` is taken): a check before anything is
    /// touched. Opens without following a link and without blocking, tries the lock, lets it
    /// go at once. False when nothing is there or it cannot be opened.
    public static func isBeingWritten(_ path: String) -> Bool {
        let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return false }
        return errno == EWOULDBLOCK
    }

    /// The reason a live writer's file is refused, as the messages say it.
    public static let beingWritten = "is being written by another jackwave (its file is locked); nothing of it was touched"

    /// A temporary beside `path`, for a file that replaces it only once complete: `mkostemp`
    /// (`jackwave_make_temporary`) of `DIR/.NAME.XXXXXX`, unguessable and close-on-exec, then
    /// given `mode` (nil: 0644 less the umask) and locked. Returns its descriptor and path.
    public static func temporary(beside path: String, mode: mode_t? = nil) throws(CreatedFileError) -> (fd: Int32, path: String) {
        let directory = FileNames.directory(path)
        let prefix = directory.isEmpty ? "" : directory.hasSuffix("/") ? directory : directory + "/"
        var template = Array((prefix + "." + FileNames.lastComponent(path) + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { jackwave_make_temporary($0.baseAddress!) }
        guard fd >= 0 else { throw CreatedFileError(path: path, reason: "cannot create a temporary file beside it (\(systemReason(errno)))") }
        let made = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        _ = fchmod(fd, mode ?? (0o644 & ~processUmask))
        // Locked as every file being written is; the lock follows it into place.
        _ = flock(fd, LOCK_EX | LOCK_NB)
        return (fd, made)
    }

    /// Puts a complete temporary in `path`'s place: `rename` (replacing a link itself, never its
    /// target), or, not `replacing`, only if nothing is there (`RENAME_NOREPLACE`; the error's
    /// `exists` is then true and the temporary kept). On other failures the temporary is removed.
    public static func moveIntoPlace(_ temporary: String, at path: String, replacing: Bool = true) throws(CreatedFileError) {
        let moved = replacing ? rename(temporary, path) : jackwave_rename_noreplace(temporary, path)
        guard moved == 0 else {
            let code = errno
            if code == EEXIST && !replacing { throw CreatedFileError(path: path, reason: "exists", exists: true) }
            unlink(temporary)
            throw CreatedFileError(path: path, reason: "cannot move the new file into place (\(systemReason(code)))")
        }
    }

    /// The process's umask, read from `/proc/self/status` (`umask()` cannot be read without
    /// setting it, which would race with the threads creating files); 022 if it cannot be read.
    public static let processUmask: mode_t = {
        guard let file = fopen("/proc/self/status", "re") else { return 0o022 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("Umask:") else { continue }
            let digits = text.dropFirst(6).filter { $0 >= "0" && $0 <= "7" }
            return mode_t(digits, radix: 8) ?? 0o022
        }
        return 0o022
    }()

    /// What a failed `open` means for a file about to be created (`lstat`: whether what is
    /// there is a link).
    static func openFailure(_ code: Int32, path: String) -> String {
        var info = stat()
        let isLink = lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        return switch code {
        case EEXIST where isLink, ELOOP: "is a symbolic link; jackwave never writes through one"
        case EEXIST: fileExists
        case ELOOP: "is a symbolic link; jackwave never writes through one"
        case ENXIO: "is a FIFO or a socket, not a regular file"
        default: systemReason(code)
        }
    }

    static func systemReason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The reason for a plain file in the way, which `--force` would replace.
    static let fileExists = "file exists"
}

/// A file that could not be created or taken over: which, and why, in one line.
public struct CreatedFileError: Error, Equatable, Sendable {
    public let path: String
    public let reason: String
    /// Something is at `path`, which was not to be replaced (`moveIntoPlace`).
    public var exists = false
    public var message: Phrase {
        reason == CreatedFile.fileExists ? "\(path): \(reason) (use \(setting: .force) to overwrite it)" : "\(path): \(reason)"
    }

    public init(path: String, reason: String, exists: Bool = false) {
        self.path = path
        self.reason = reason
        self.exists = exists
    }
}
