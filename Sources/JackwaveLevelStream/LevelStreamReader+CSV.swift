import FoundationEssentials
import Glibc

/// Reading the CSV form of a level stream: a header of `frame`, `time` and the port names (a
/// name holding a comma or quote is quoted, RFC 4180), then one row of numbers per interval.
/// The columns a run adds (`take`, `gap_seconds`, `dropouts`, the MIDI inputs' `…_events`, in
/// that order) precede the peaks.
extension LevelStreamReader {
    /// Parses a whole CSV stream; the first malformed line stops it, named by number.
    /// `maximumPeaks`: the table keeps about that many (`LevelStreamTable`), nil for every row.
    public static func parseCSV(_ text: some LevelStreamLines, path: String,
                                maximumPeaks: Int? = nil) throws(LevelStreamReadError) -> LevelStreamTable {
        var names: [String]? = nil
        // Columns a run adds, not channels: `take`, `gap_seconds` (a gap row holds no levels and is
        // skipped) and `dropouts`.
        var hasTake = false
        var hasGap = false
        var hasDropouts = false
        var midiColumns = 0
        var rows = LevelStreamTable(channelNames: nil, channelCount: 0)
        var values: [Double] = []
        var fields: [UnsafeBufferPointer<UInt8>] = []
        try text.forEachLine { (number, line) throws(LevelStreamReadError) in
            guard let channelNames = names else {
                let header = headerFields(TextBytes.text(line))
                guard header.count >= 3, header[0] == "frame", header[1] == "time" else {
                    throw LevelStreamReadError("\(path): not a level stream (the first line must be frame,time,<ports…>)")
                }
                // Each optional column where it may stand, with at least one channel after it.
                var next = 2
                func optional(_ name: String) -> Bool {
                    guard header.count > next + 1, header[next] == name else { return false }
                    next += 1
                    return true
                }
                hasTake = optional("take")
                hasGap = optional(LevelStreamFormatter.gapColumnName)
                hasDropouts = optional(LevelStreamFormatter.dropoutColumnName)
                // MIDI event counts (`midi_1_events`, …): not channels, not drawn.
                while header.count > next + 1 && header[next].hasSuffix(LevelStreamFormatter.midiColumnSuffix) {
                    next += 1
                    midiColumns += 1
                }
                let columns = try LoudnessHeader(Array(header.dropFirst(next)), path: path)
                try checkChannels(columns.channelNames.count, path: path, line: number)
                names = columns.channelNames
                rows = LevelStreamTable(channelNames: names, channelCount: columns.channelNames.count,
                                        hasLoudness: columns.hasLoudness, hasDropouts: hasDropouts, maximumPeaks: maximumPeaks)
                return
            }
            let width = channelNames.count + (rows.hasLoudness ? LoudnessHeader.extraColumns(channelNames.count) : 0)
            let place = "\(path) line \(number)"
            split(line, into: &fields)
            if hasTake && fields.count > 2 { fields.remove(at: 2) }
            if hasGap && fields.count > 2 {
                let gap = TextBytes.number(fields.remove(at: 2)) ?? 0
                if gap > 0 { return }
            }
            var dropouts: Double?
            if hasDropouts && fields.count > 2 {
                let field = fields.remove(at: 2)
                guard let n = TextBytes.number(field) else {
                    throw LevelStreamReadError("\(place): dropouts '\(TextBytes.text(TextBytes.trimmed(field)))' is not a number")
                }
                dropouts = n
            }
            if midiColumns > 0 && fields.count > 2 + midiColumns { fields.removeSubrange(2..<(2 + midiColumns)) }
            guard fields.count == width + 2 else {
                throw LevelStreamReadError("\(place): \(fields.count) fields, the header has \(width + 2)")
            }
            values.removeAll(keepingCapacity: true)
            for (k, field) in fields.enumerated() {
                guard let v = TextBytes.number(field) else {
                    let what = k == 0 ? "frame" : k == 1 ? "time" : k < 2 + channelNames.count ? "peak" : "loudness"
                    throw LevelStreamReadError("\(place): \(what) '\(TextBytes.text(TextBytes.trimmed(field)))' is not a number")
                }
                values.append(v)
            }
            try values.withUnsafeBufferPointer { (v: UnsafeBufferPointer<Double>) throws(LevelStreamReadError) in
                try rows.append(frame: v[0], time: v[1], peaks: UnsafeBufferPointer(rebasing: v[2..<(2 + channelNames.count)]),
                                at: place, text: { TextBytes.text(TextBytes.trimmed(fields[$0])) })
                if rows.hasLoudness { rows.appendLoudness(UnsafeBufferPointer(rebasing: v[(2 + channelNames.count)...])) }
            }
            if let dropouts { try rows.appendDropouts(dropouts, at: place) }
        }
        guard names != nil else { throw LevelStreamReadError("\(path): the level stream is empty") }
        return rows
    }

    /// The comma-separated fields of a data row (numbers: never quoted).
    private static func split(_ line: UnsafeBufferPointer<UInt8>, into fields: inout [UnsafeBufferPointer<UInt8>]) {
        fields.removeAll(keepingCapacity: true)
        guard let base = line.baseAddress else { return }
        var start = 0
        for i in 0...line.count where i == line.count || base[i] == UInt8(ascii: ",") {
            fields.append(UnsafeBufferPointer(start: base + start, count: i - start))
            start = i + 1
        }
    }

    /// The header's fields, unquoting `"a,b"` and `"say ""hi"""` as RFC 4180 does.
    static func headerFields(_ line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var chars = line.makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" {
                    // A doubled quote is a quote; a single one closes the field.
                    guard let next = chars.next() else { quoted = false; break }
                    if next == "\"" { field.append("\"") } else {
                        quoted = false
                        if next == "," { fields.append(field); field = "" } else { field.append(next) }
                    }
                } else {
                    field.append(c)
                }
            } else if c == "\"" && field.isEmpty {
                quoted = true
            } else if c == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(c)
            }
        }
        fields.append(field)
        return fields.map { $0.trimmingBlanks() }
    }
}
