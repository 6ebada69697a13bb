import FoundationEssentials
import Glibc

/// Reads a level stream back, CSV or JSON Lines, chosen by the path as the writer chose it
/// (`LevelStreamFormat.forPath`). The first malformed line stops it, named by number.
public enum LevelStreamReader {
    /// Reads and checks a whole stream from a file.
    public static func read(path: String) throws(LevelStreamReadError) -> LevelStreamTable {
        // `open` first, for the system's reason (`No such file or directory`) in the message.
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw LevelStreamReadError("\(path): cannot read it (\(String(cString: strerror(errno))))") }
        close(fd)
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw LevelStreamReadError("\(path): cannot read it")
        }
        return try parse(TextBytes(data), format: LevelStreamFormat.forPath(path), path: path)
    }

    /// Parses a whole stream of `format`; `path` names it in messages.
    public static func parse(_ text: TextBytes, format: LevelStreamFormat, path: String) throws(LevelStreamReadError) -> LevelStreamTable {
        switch format {
        case .csv: try parseCSV(text, path: path)
        case .jsonl: try parseJSONLines(text, path: path)
        }
    }
}
