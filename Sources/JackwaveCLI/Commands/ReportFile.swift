import Glibc

/// A report written to a file of its own: created with `O_EXCL | O_NOFOLLOW` (never over an
/// existing file, never through a symbolic link), or with `--force` with `O_NOFOLLOW |
/// O_TRUNC` (replacing a file, never a link's target).
enum ReportFile {
    /// Writes `text` to `path`; nil, or why it failed.
    static func write(_ text: String, to path: String, force: Bool) -> String? {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (force ? O_TRUNC : O_EXCL)
        let fd = open(path, flags, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        let written = Console.write(text, to: fd)
        let failure = written ? nil : String(cString: strerror(errno))
        if close(fd) != 0 && failure == nil { return String(cString: strerror(errno)) }
        return failure
    }
}
