/// Reading the CSV form of a level stream: a header `frame,time,<port names…>`, then one
/// row `frame,time,peak1,peak2,…` per interval.
extension LevelStream {
    /// Parses a whole CSV stream; the first malformed line stops it, named by number.
    static func parseCSV(_ text: TextBytes, path: String) throws(PlotError) -> LevelStream {
        var names: [String]? = nil
        var rows = Rows()
        var values: [Double] = []
        var fields: [UnsafeBufferPointer<UInt8>] = []
        try text.forEachLine { (number, line) throws(PlotError) in
            split(line, into: &fields)
            guard let channelNames = names else {
                let header = fields.map { TextBytes.text(TextBytes.trimmed($0)) }
                guard header.count >= 3, header[0] == "frame", header[1] == "time" else {
                    throw PlotError.badInput("\(path): not a level stream (the first line must be frame,time,<ports…>)")
                }
                names = Array(header.dropFirst(2))
                return
            }
            let place = "\(path) line \(number)"
            guard fields.count == channelNames.count + 2 else {
                throw PlotError.badInput("\(place): \(fields.count) fields, the header has \(channelNames.count + 2)")
            }
            values.removeAll(keepingCapacity: true)
            for (k, field) in fields.enumerated() {
                // A field that is not a number at all is NaN here; `append` names it.
                values.append(TextBytes.number(field) ?? (k == 0 ? -1 : .nan))
            }
            try values.withUnsafeBufferPointer { (v: UnsafeBufferPointer<Double>) throws(PlotError) in
                try rows.append(frame: v[0], time: v[1], peaks: UnsafeBufferPointer(rebasing: v[2...]),
                                at: place, text: { TextBytes.text(TextBytes.trimmed(fields[$0])) })
            }
        }
        guard let channelNames = names else { throw PlotError.badInput("\(path): the level stream is empty") }
        return LevelStream(channelNames: channelNames, times: rows.times, peaks: rows.peaks)
    }

    /// The comma-separated fields of a line (no quoting: port names hold no commas).
    private static func split(_ line: UnsafeBufferPointer<UInt8>, into fields: inout [UnsafeBufferPointer<UInt8>]) {
        fields.removeAll(keepingCapacity: true)
        guard let base = line.baseAddress else { return }
        var start = 0
        for i in 0...line.count where i == line.count || base[i] == UInt8(ascii: ",") {
            fields.append(UnsafeBufferPointer(start: base + start, count: i - start))
            start = i + 1
        }
    }
}
