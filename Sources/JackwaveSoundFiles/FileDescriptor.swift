import CGlibcExtras
import Glibc

/// An open file descriptor of a file being written: the one place where jackwave calls the
/// POSIX file functions for recordings. Every method wraps one C call, named in its doc line.
struct FileDescriptor {
    let rawValue: Int32

    /// Creates `path` (or takes over a plain file there, with `.replace`) through
    /// `CreatedFile.open`: never through a link, locked while open, close-on-exec (no
    /// process jackwave starts holds a take open). Throws the reason.
    static func create(_ path: String, policy: CreatedFile.Policy) throws(SoundFileError) -> FileDescriptor {
        do throws(CreatedFileError) {
            return FileDescriptor(rawValue: try CreatedFile.open(path, policy: policy))
        } catch {
            throw SoundFileError(path: path, reason: error.reason)
        }
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
