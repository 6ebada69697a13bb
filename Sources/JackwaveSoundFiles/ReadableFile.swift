import Glibc

/// Opening a file jackwave reads: a plain file only. `O_NONBLOCK` while opening, so a FIFO or
/// a device is refused at once instead of waited on; `O_CLOEXEC` as for every file jackwave
/// holds. The size is what header counts are checked against.
public enum ReadableFile {
    /// The descriptor (blocking again) and the file's size in bytes; throws the reason in
    /// the user's terms.
    public static func open(_ path: String) throws(SoundFileError) -> (fd: Int32, size: Int64) {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw SoundFileError(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw SoundFileError(path: path, reason: reason)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(fd)
            throw SoundFileError(path: path, reason: info.st_mode & S_IFMT == S_IFDIR ? "is a directory"
                                 : "is not a regular file (a FIFO, a socket or a device); jackwave reads only plain files")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return (fd, Int64(info.st_size))
    }
}
