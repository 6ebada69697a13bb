import FoundationEssentials
import Glibc
import JackwaveRunSupport
import JackwaveVocabulary

/// The source password a stream logs in with, kept out of the process list: from
/// `--stream-password-file FILE` (its first line), else from `JACKWAVE_STREAM_PASSWORD`, else
/// from the URL (which works, with a warning). The file and a password in the URL exclude
/// each other, so that it is never unclear which one is used.
public enum StreamPassword {
    /// The variable the password may come from.
    public static let variable = "JACKWAVE_STREAM_PASSWORD"
    /// A password file longer than this is refused (a password is a line).
    static let maximumFileBytes = 4096

    /// Takes the password out of the process once `environment` holds it: the variable
    /// unset and its bytes erased where the kernel shows them (`/proc/PID/environ`), and a
    /// password in the `--stream` URL masked in the arguments (`/proc/PID/cmdline`), so that
    /// no hook or other child finds either through `$PPID`.
    public static func leaveProcess(urlPassword: Bool) {
        ProcessBlock.removeVariable(variable)
        if urlPassword { ProcessBlock.maskURLPasswords() }
    }

    /// The password and the warnings to say (a password in the URL, a file others can read).
    public static func resolve(_ target: StreamTarget, file: String?, environment: [String: String])
        throws(StreamTargetError) -> (password: String, warnings: [Phrase]) {
        var warnings: [Phrase] = []
        if let file {
            if target.passwordInURL != nil {
                throw StreamTargetError("\(setting: .streamPasswordFile) and a password in the \(setting: .stream) URL exclude each other")
            }
            let (password, readable) = try read(file)
            if readable { warnings.append("\(setting: .streamPasswordFile) \(file) can be read by other users (chmod 600 it)") }
            return (password, warnings)
        }
        if let password = environment[variable], !password.isEmpty {
            if target.passwordInURL != nil { warnings.append("\(setting: .stream): the URL's password is used, not \(variable)") }
            else { return (password, warnings) }
        }
        if let password = target.passwordInURL {
            warnings.append("\(setting: .stream): a password in the URL shows in the process list; use \(variable) or \(setting: .streamPasswordFile)")
            return (password, warnings)
        }
        throw StreamTargetError("\(setting: .stream) \(target.display): no password (set \(variable) or give \(setting: .streamPasswordFile))")
    }

    /// The first line of `path` (without its line end), and whether others may read the file.
    /// Opened without blocking: a FIFO's `open` would wait for a writer with the signals
    /// masked (only SIGKILL could end it); it is refused as not a regular file at once.
    static func read(_ path: String) throws(StreamTargetError) -> (String, Bool) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { throw StreamTargetError("\(setting: .streamPasswordFile) \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw StreamTargetError("\(setting: .streamPasswordFile) \(path): not a regular file")
        }
        guard info.st_size <= maximumFileBytes else {
            throw StreamTargetError("\(setting: .streamPasswordFile) \(path): longer than \(maximumFileBytes) bytes (a password is one line)")
        }
        var bytes = [UInt8](repeating: 0, count: maximumFileBytes)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        let line = bytes[..<count].split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let text = String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        guard !text.isEmpty else { throw StreamTargetError("\(setting: .streamPasswordFile) \(path): its first line is empty") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw StreamTargetError("\(setting: .streamPasswordFile) \(path): the password holds a control character")
        }
        return (text, info.st_mode & (S_IRGRP | S_IROTH) != 0)
    }
}
