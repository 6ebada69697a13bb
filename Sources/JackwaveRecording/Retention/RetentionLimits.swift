/// `--keep 30d` and `--keep-space 50G`: how long, and how much, of its own files a station
/// logger keeps. Either or both; the oldest files go first.
public struct RetentionLimits: Sendable, Equatable {
    /// A file whose last write (its end, `st_mtime`) is older than this is deleted.
    public var seconds: Double?
    /// Its files take at most this many bytes in all (`st_size`, the file being written
    /// included): the oldest are deleted until they fit.
    public var bytes: Int64?

    public init(seconds: Double? = nil, bytes: Int64? = nil) {
        self.seconds = seconds
        self.bytes = bytes
    }

    /// `90m`, `12h`, `30d`, `2w` (or plain seconds, `3600s`): a number above 0 and a unit.
    public static func parseAge(_ text: String) -> Double? {
        let lower = text.lowercased()
        guard let unit = lower.last, let scale = (["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400] as [String: Double])[String(unit)],
              let count = Double(lower.dropLast()), count.isFinite, count > 0 else { return nil }
        let seconds = count * scale
        return seconds <= 100 * 365 * 86400 ? seconds : nil
    }

    /// `500M`, `50G`, `2T` (`K` too; `GiB` spelled out is the same): powers of 1024, as
    /// `df -h` and `du -h` count. At least 1 MiB.
    public static func parseSize(_ text: String) -> Int64? {
        var lower = text.lowercased()
        if lower.hasSuffix("ib") { lower.removeLast(2) }
        guard let unit = lower.last, let power = ["k": 1, "m": 2, "g": 3, "t": 4][String(unit)],
              let count = Double(lower.dropLast()), count.isFinite, count > 0 else { return nil }
        var bytes = count
        for _ in 0..<power { bytes *= 1024 }
        return bytes >= Double(1 << 20) && bytes < Double(Int64.max / 2) ? Int64(bytes) : nil
    }
}
