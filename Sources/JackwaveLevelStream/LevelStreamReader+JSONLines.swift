import FoundationEssentials
import Glibc

/// Reading the JSON Lines form of a level stream: one object per line,
/// `{"frame":123,"time":0.0025625,"peak":[0.1,0.2]}`, `null` for a peak that was not finite.
/// Each line goes first through `FlatObject`, a scanner for exactly this shape, as
/// Foundation's general parsing is far too slow for an hour of per-period levels; a line it
/// does not understand goes to `JSONDecoder` (`JSONValue`), which says what is wrong.
extension LevelStreamReader {
    /// Parses a whole JSON Lines stream; the first malformed line stops it, named by number.
    /// `maximumPeaks`: the table keeps about that many (`LevelStreamTable`), nil for every row.
    public static func parseJSONLines(_ text: some LevelStreamLines, path: String,
                                      maximumPeaks: Int? = nil) throws(LevelStreamReadError) -> LevelStreamTable {
        var channels: Int? = nil
        var rows = LevelStreamTable(channelNames: nil, channelCount: 0)
        try text.forEachLine { (number, line) throws(LevelStreamReadError) in
            let place = "\(path) line \(number)"
            let row: FlatObject
            if let fast = FlatObject.scan(line) { row = fast } else { row = try foundationRow(line, at: place) }
            // A server gap (`--reconnect`) holds no levels.
            if let gap = row.gapSeconds, gap > 0, row.peak == nil { return }
            guard let frame = row.frame, let time = row.time, let peaks = row.peak, !peaks.isEmpty else {
                throw LevelStreamReadError("\(place): needs \"frame\", \"time\" and a \"peak\" array")
            }
            if channels == nil {
                try checkChannels(peaks.count, path: path, line: number)
                channels = peaks.count
                rows = LevelStreamTable(channelNames: nil, channelCount: peaks.count, hasLoudness: row.mentionsLoudness,
                                        hasDropouts: row.dropouts != nil, maximumPeaks: maximumPeaks)
            }
            guard peaks.count == channels else {
                throw LevelStreamReadError("\(place): \(peaks.count) peaks, earlier lines have \(channels!)")
            }
            let loudness = row.loudnessValues
            if rows.hasLoudness || row.mentionsLoudness {
                guard rows.hasLoudness, let loudness, loudness.count == 4 + peaks.count else {
                    throw LevelStreamReadError("\(place): the loudness must be \"lufs_m\", \"lufs_s\", \"lufs_i\", \"lra\" and a \"dbtp\" array of \(peaks.count) on every line, or on none")
                }
            }
            try peaks.withUnsafeBufferPointer { (p: UnsafeBufferPointer<Double>) throws(LevelStreamReadError) in
                try rows.append(frame: frame, time: time, peaks: p, at: place, text: { k in
                    String(k == 0 ? frame : k == 1 ? time : peaks[k - 2])
                })
            }
            if let loudness {
                loudness.withUnsafeBufferPointer { rows.appendLoudness($0) }
            }
            guard rows.hasDropouts == (row.dropouts != nil) else {
                throw LevelStreamReadError("\(place): \"\(LevelStreamFormatter.dropoutColumnName)\" must be on every line, or on none")
            }
            if let dropouts = row.dropouts { try rows.appendDropouts(dropouts, at: place) }
        }
        guard channels != nil else { throw LevelStreamReadError("\(path): the level stream is empty") }
        return rows
    }

    /// The slow, general path: any valid JSON object, through `JSONDecoder`.
    private static func foundationRow(_ line: UnsafeBufferPointer<UInt8>, at place: String) throws(LevelStreamReadError) -> FlatObject {
        guard case let .object(object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: line)) else {
            throw LevelStreamReadError("\(place): not a JSON object")
        }
        var row = FlatObject()
        row.frame = object["frame"]?.number
        row.time = object["time"]?.number
        row.gapSeconds = object[LevelStreamFormatter.gapColumnName]?.number
        row.dropouts = object[LevelStreamFormatter.dropoutColumnName]?.number
        for (k, key) in FlatObject.loudnessKeys.enumerated() {
            guard let value = object[key] else { continue }
            if case .null = value { row.loudness[k] = .nan } else { row.loudness[k] = value.number }
        }
        if case let .array(list)? = object["dbtp"] { row.dbtp = list.map { $0.number ?? .nan } }
        if case let .array(list)? = object["peak"] {
            var peaks: [Double] = []
            for v in list {
                if case .null = v { peaks.append(.nan); continue }
                guard let n = v.number else {
                    throw LevelStreamReadError("\(place): \"peak\" holds something that is not a number")
                }
                peaks.append(n)
            }
            row.peak = peaks
        }
        return row
    }
}
