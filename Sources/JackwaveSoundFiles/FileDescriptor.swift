import CGlibcExtras
import Glibc

/// An open file descriptor of a file being written: the one place where jackwave calls the
/// POSIX file functions for recordings. Every method wraps one C call, named in its doc line.
struct FileDescriptor {
    let rawValue: Int32

    /// `open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)`: creates or truncates
    /// `path`, as libsndfile's own `sf_open` would (same flags and mode, plus close-on-exec:
    /// no process jackwave ever starts should hold a take open). Throws the system's reason.
    static func create(_ path: String) throws(SoundFileError) -> FileDescriptor {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SoundFileError(path: path, reason: String(cString: strerror(errno))) }
        return FileDescriptor(rawValue: fd)
    }

    /// `fstat`: the file's size in bytes, or nil if the call failed.
    var size: Int64? {
        var info = stat()
        return fstat(rawValue, &info) == 0 ? Int64(info.st_size) : nil
    }

    /// `fallocate` with `FALLOC_FL_KEEP_SIZE` (through `CGlibcExtras`): reserves disk blocks for
    /// `range` without changing the size; false if the filesystem or a full disk refused.
    func reserve(_ range: Range<Int64>) -> Bool {
        jackwave_reserve_blocks(rawValue, range.lowerBound, range.upperBound - range.lowerBound) == 0
    }

    /// `ftruncate` to the current size: gives back blocks reserved past the end.
    func releaseReservedBlocks() {
        guard let size, let length = off_t(exactly: size) else { return }
        _ = ftruncate(rawValue, length)
    }

    /// `close`: 0, or the errno value of a failure (a write error the kernel deferred).
    func close() -> Int32 { Glibc.close(rawValue) == 0 ? 0 : errno }
}
