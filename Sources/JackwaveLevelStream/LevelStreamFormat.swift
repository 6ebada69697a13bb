/// How a level stream is written: CSV (a header, then one row a line) or JSON Lines (one
/// object a line, no header).
public enum LevelStreamFormat: String, Equatable, Sendable, CaseIterable {
    case csv, jsonl

    /// The format for a path: an explicit `--levels-format` wins; otherwise `.jsonl` and
    /// `.ndjson` mean JSON Lines and everything else (`.csv`, `-` for stdout) means CSV.
    public static func forPath(_ path: String, explicit: LevelStreamFormat? = nil) -> LevelStreamFormat {
        if let explicit { return explicit }
        let lower = path.lowercased()
        return lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") ? .jsonl : .csv
    }
}
