import Glibc

/// Where a level stream's lines come from: bytes in memory (`TextBytes`: the tests, a
/// fuzzer), or a file read a chunk at a time (`LevelStreamFile`). Each line is handed over
/// without its `\n`, a trailing `\r` or surrounding blanks, with a byte after it that ends a
/// number (so `strtod` never reads past a line); blank lines are skipped.
public protocol LevelStreamLines {
    /// Calls `body` with each line's number (from 1) and its bytes.
    func forEachLine(_ body: (Int, UnsafeBufferPointer<UInt8>) throws(LevelStreamReadError) -> Void) throws(LevelStreamReadError)
}

extension TextBytes: LevelStreamLines {}

/// A level stream file read line by line through a fixed buffer, so reading takes the same
/// memory for 1 KB as for 1 GB (rows kept are `LevelStreamTable.maximumRows`'s business).
/// Only a plain file is read (a FIFO is refused, not waited on), and no line longer than
/// `maximumLineBytes`: a gigabyte of NULs with no newline is not a line to hold.
public final class LevelStreamFile: LevelStreamLines {
    /// The longest line read: far past any level stream's (about 40 KB at 1024 channels with
    /// loudness), far short of a memory problem.
    public static let maximumLineBytes = 1 << 20
    /// Bytes per `read(2)`.
    static let chunkBytes = 1 << 16

    private let fd: Int32
    private let path: String

    /// Opens `path` for reading; throws the reason in one line.
    public init(path: String) throws(LevelStreamReadError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw LevelStreamReadError("\(path): cannot read it (\(String(cString: strerror(errno))))") }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw LevelStreamReadError("\(path): not a regular file (a FIFO, a socket or a device); jackwave reads only plain files")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    public func forEachLine(_ body: (Int, UnsafeBufferPointer<UInt8>) throws(LevelStreamReadError) -> Void) throws(LevelStreamReadError) {
        // A line (at most maximumLineBytes), a chunk after it, and a byte for the NUL that ends the last line.
        let capacity = Self.maximumLineBytes + Self.chunkBytes + 1
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var start = 0, end = 0, scanned = 0
        var number = 0
        var atEnd = false
        while true {
            // Every complete line in the buffer.
            while let newline = UnsafeBufferPointer(start: buffer + scanned, count: end - scanned).firstIndex(of: UInt8(ascii: "\n")) {
                let stop = scanned + newline
                number += 1
                guard stop - start <= Self.maximumLineBytes else { throw tooLong(number) }
                let line = TextBytes.trimmed(UnsafeBufferPointer(start: buffer + start, count: stop - start))
                if !line.isEmpty { try body(number, line) }
                start = stop + 1
                scanned = start
            }
            scanned = end
            if end - start > Self.maximumLineBytes { throw tooLong(number + 1) }
            if atEnd {
                guard end > start else { return }
                number += 1
                buffer[end] = 0
                let line = TextBytes.trimmed(UnsafeBufferPointer(start: buffer + start, count: end - start))
                if !line.isEmpty { try body(number, line) }
                return
            }
            // What is left of a line moves to the front; a chunk is read after it.
            if start > 0 {
                memmove(buffer, buffer + start, end - start)
                end -= start
                scanned -= start
                start = 0
            }
            let n = read(fd, buffer + end, min(Self.chunkBytes, capacity - 1 - end))
            if n < 0 {
                if errno == EINTR { continue }
                throw LevelStreamReadError("\(path): reading failed (\(String(cString: strerror(errno))))")
            }
            if n == 0 { atEnd = true } else { end += n }
        }
    }

    private func tooLong(_ line: Int) -> LevelStreamReadError {
        LevelStreamReadError("\(path) line \(line): longer than \(Self.maximumLineBytes) bytes, which no level stream's line is")
    }
}
