import Glibc
import JackwaveHost
import JackwaveRunSupport

/// `jackwave --arguments FILE [more…]`: the command line from a file, one argument per line,
/// for a service (`scripts/jackwave@.service`), where a shell's quoting is not at hand and
/// systemd splits `$VAR` on blanks (`--on-close "flac -s"` became three arguments).
///
/// Each line is one argument exactly as written: no quoting, no escapes, blanks kept
/// (`flac -s` is one argument). Blank lines and lines whose first non-blank is `#` are
/// skipped; a trailing `\r` and a UTF-8 byte-order mark at the start are dropped. A plain
/// file of at most 64 KiB and 1024 arguments, which may not name `--arguments` again. The
/// arguments after FILE on the command line follow its own.
///
/// The file can name commands (`--on-close`, `--on-event`), so it must be as trusted as the
/// user who runs them: owned by that user or root, and writable by no one else.
public enum ArgumentsFile {
    public static let maximumBytes = 65536
    public static let maximumArguments = 1024

    /// The arguments `path` holds, or the one-line reason it cannot be read.
    public static func read(_ path: String) throws(UsageError) -> [String] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw UsageError("--arguments \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw UsageError("--arguments \(path): not a regular file")
        }
        guard info.st_uid == geteuid() || info.st_uid == 0, info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw UsageError("--arguments \(path): owned by another user, or writable by group or others; it can name commands, so it must be this user's or root's alone (chmod go-w)")
        }
        guard info.st_size <= maximumBytes else {
            throw UsageError("--arguments \(path): \(info.st_size) bytes; an arguments file holds at most \(maximumBytes)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw UsageError("--arguments \(path): reading failed") }
            done += n
        }
        return try parse(bytes, path: path)
    }

    /// The arguments of a file's bytes (see the type's doc).
    static func parse(_ bytes: [UInt8], path: String) throws(UsageError) -> [String] {
        var arguments: [String] = []
        let byteOrderMark: [UInt8] = [0xef, 0xbb, 0xbf]
        let text = bytes.starts(with: byteOrderMark) ? bytes.dropFirst(byteOrderMark.count) : bytes[...]
        for (n, raw) in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let line = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw
            let firstInk = line.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            if firstInk == nil || firstInk == UInt8(ascii: "#") { continue }
            guard let text = String(validating: line, as: UTF8.self), !text.contains("\0") else {
                throw UsageError("--arguments \(path) line \(n + 1): not UTF-8 text")
            }
            if text == "--arguments" { throw UsageError("--arguments \(path) line \(n + 1): an arguments file cannot name another") }
            arguments.append(text)
            if arguments.count > maximumArguments {
                throw UsageError("--arguments \(path): more than \(maximumArguments) arguments")
            }
        }
        return arguments
    }
}
