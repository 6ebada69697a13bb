import JackwaveVocabulary
import Glibc
import JackwaveHost
import JackwaveRunSupport

/// Lines for the user on stderr, every one prefixed `jackwave: `; help on stdout.
///
/// A line may hold text from outside (a file name, an OSC path, a label): it is escaped
/// (`TerminalEscaping`) so that it stays one line and moves nothing on the terminal.
public enum Console {
    /// A line of information (connections, drops, the summary).
    public static func say(_ line: String) { write("jackwave: \(TerminalEscaping.escape(line))\n") }
    public static func say(_ line: Phrase) { say(line.line) }

    /// The one line that explains a failure.
    public static func error(_ line: String) { write("jackwave: error: \(TerminalEscaping.escape(line))\n") }
    public static func error(_ line: Phrase) { error(line.line) }

    /// Raw text to stderr, unbuffered.
    public static func write(_ text: String) { write(text, to: 2) }

    /// Text to stdout (help, version).
    public static func writeOut(_ text: String) { write(text, to: 1) }

    /// Writes all of `text` to a file descriptor with `write(2)`, retrying short writes.
    /// Returns false if the descriptor refused (a closed pipe, a full disk).
    @discardableResult
    public static func write(_ text: String, to fd: Int32) -> Bool {
        var t = text
        return t.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }
}
