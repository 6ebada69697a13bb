/// Text from outside (an OSC path or label, a file name from the command line, a hook's
/// message) made safe for a terminal and for the journal: the one helper every line on
/// stderr goes through (`Console.say`/`error`, the live meter's lines above it).
///
/// A control character in such text could move the cursor, retitle the terminal
/// (`ESC ] 0 ; … BEL`), or start a new line that reads as one of jackwave's own
/// (`jackwave: error: …` in the journal). Each one is written out instead, in the form a
/// C or shell programmer reads: `\n`, `\t`, `\r`, `\e`, `\a`, `\xNN` for the other C0
/// controls and DEL, `\u{NN}` for the C1 controls, the line and paragraph separators and
/// the bidirectional overrides (which can make a line read backwards). Backslashes are
/// left as they are, so that escaping is idempotent: a line made of already escaped text
/// comes out unchanged, and a line can be escaped wherever it is finally written.
public enum TerminalEscaping {
    /// `text` with every control character written out (see the type's doc).
    public static func escape(_ text: String) -> String {
        // The common case, a line with nothing to escape, costs one pass and no copy.
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String()
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else { out.unicodeScalars.append(scalar); continue }
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x0D: out += "\\r"
            case 0x1B: out += "\\e"
            case 0x07: out += "\\a"
            case 0..<0x20, 0x7F: out += "\\x" + hex(scalar.value, digits: 2)
            default: out += "\\u{" + hex(scalar.value, digits: 2) + "}"
            }
        }
        return out
    }

    /// At most `maximumBytes` of `text` (UTF-8, cut on a character), escaped; a longer text
    /// ends with `…` and its full size, so that a 60 KB label makes a short line.
    public static func excerpt(_ text: String, maximumBytes: Int = 120) -> String {
        let size = text.utf8.count
        guard size > maximumBytes else { return escape(text) }
        var kept = Substring()
        var bytes = 0
        for character in text {
            let n = character.utf8.count
            if bytes + n > maximumBytes { break }
            bytes += n
            kept.append(character)
        }
        return escape(String(kept)) + "… (\(size) bytes)"
    }

    /// Whether a scalar cannot go to a terminal as it is.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        // LINE SEPARATOR, PARAGRAPH SEPARATOR; the bidirectional embeddings, overrides and isolates.
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
