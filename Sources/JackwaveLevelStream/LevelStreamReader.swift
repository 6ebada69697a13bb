import FoundationEssentials
import Glibc

/// Reads a level stream back, CSV or JSON Lines, chosen by the path as the writer chose it
/// (`LevelStreamFormat.forPath`). The first malformed line stops it, named by number. Read
/// line by line through `LevelStreamFile`, never whole, so memory is the table's alone.
public enum LevelStreamReader {
    /// The most channels a stream may have: jackwave records at most 1024 ports, and a header
    /// of 200,000 columns is no level stream to size a table by.
    public static let maximumChannels = 1024
    /// A row's time is under this many seconds (31,700 years), as a MIDI file's length is
    /// for plot: a time past it is no recording's, and far past it a picture's title and
    /// axis could not write it (whole seconds as `Int64`).
    public static let maximumSeconds = 1e12

    /// Reads and checks a whole stream from a file; `maximumPeaks` as `LevelStreamTable` says.
    public static func read(path: String, maximumPeaks: Int? = nil) throws(LevelStreamReadError) -> LevelStreamTable {
        try parse(LevelStreamFile(path: path), format: LevelStreamFormat.forPath(path), path: path, maximumPeaks: maximumPeaks)
    }

    /// Parses a whole stream of `format`; `path` names it in messages.
    public static func parse(_ text: some LevelStreamLines, format: LevelStreamFormat, path: String,
                             maximumPeaks: Int? = nil) throws(LevelStreamReadError) -> LevelStreamTable {
        switch format {
        case .csv: try parseCSV(text, path: path, maximumPeaks: maximumPeaks)
        case .jsonl: try parseJSONLines(text, path: path, maximumPeaks: maximumPeaks)
        }
    }

    /// Refuses more channels than `maximumChannels`, before a table is sized by them.
    static func checkChannels(_ count: Int, path: String, line: Int) throws(LevelStreamReadError) {
        guard count <= maximumChannels else {
            throw LevelStreamReadError("\(path) line \(line): \(count) channels; a level stream has at most \(maximumChannels)")
        }
    }
}
