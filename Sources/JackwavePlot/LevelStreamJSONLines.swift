import Foundation

/// Reading the JSON Lines form of a level stream: one object per line,
/// `{"frame":123,"time":0.0025625,"peak":[0.1,0.2]}`; a peak that was not finite is `null`.
///
/// Foundation's `JSONSerialization` takes about 8 µs a line on Linux, five seconds for an
/// hour of per-period levels. So each line first goes through `FlatObject`, a scanner for
/// exactly this shape (string keys without escapes, numbers, arrays of numbers, any order,
/// any spacing); a line it does not understand is handed to `JSONSerialization`, which
/// decides what it holds or why it is wrong.
extension LevelStream {
    /// Parses a whole JSON Lines stream; the first malformed line stops it, named by number.
    static func parseJSONLines(_ text: TextBytes, path: String) throws(PlotError) -> LevelStream {
        var channels: Int? = nil
        var rows = Rows()
        try text.forEachLine { (number, line) throws(PlotError) in
            let place = "\(path) line \(number)"
            let row: FlatObject
            if let fast = FlatObject.scan(line) { row = fast } else { row = try foundationRow(line, at: place) }
            guard let frame = row.frame, let time = row.time, let peaks = row.peak, !peaks.isEmpty else {
                throw PlotError.badInput("\(place): needs \"frame\", \"time\" and a \"peak\" array")
            }
            if channels == nil { channels = peaks.count }
            guard peaks.count == channels else {
                throw PlotError.badInput("\(place): \(peaks.count) peaks, earlier lines have \(channels!)")
            }
            try peaks.withUnsafeBufferPointer { (p: UnsafeBufferPointer<Double>) throws(PlotError) in
                try rows.append(frame: frame, time: time, peaks: p, at: place, text: { k in
                    String(k == 0 ? frame : k == 1 ? time : peaks[k - 2])
                })
            }
        }
        guard let channels else { throw PlotError.badInput("\(path): the level stream is empty") }
        return LevelStream(channelNames: Waveform.channelNames(channels), times: rows.times, peaks: rows.peaks)
    }

    /// The slow, general path: any valid JSON object, through Foundation.
    private static func foundationRow(_ line: UnsafeBufferPointer<UInt8>, at place: String) throws(PlotError) -> FlatObject {
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: line)) as? [String: Any] else {
            throw PlotError.badInput("\(place): not a JSON object")
        }
        var row = FlatObject()
        row.frame = (object["frame"] as? NSNumber)?.doubleValue
        row.time = (object["time"] as? NSNumber)?.doubleValue
        if let list = object["peak"] as? [Any] {
            var peaks: [Double] = []
            for v in list {
                if v is NSNull { peaks.append(.nan); continue }
                guard let n = v as? NSNumber else {
                    throw PlotError.badInput("\(place): \"peak\" holds something that is not a number")
                }
                peaks.append(n.doubleValue)
            }
            row.peak = peaks
        }
        return row
    }
}

/// The fields of one level-stream line that a plot needs.
struct FlatObject {
    var frame: Double?
    var time: Double?
    var peak: [Double]?

    /// Scans `{"key": number | [numbers or null], …}`; nil for anything else (escapes, strings,
    /// nested objects, true/false/null, trailing text), which goes to Foundation instead.
    static func scan(_ line: UnsafeBufferPointer<UInt8>) -> FlatObject? {
        guard var p = line.baseAddress, !line.isEmpty else { return nil }
        let end = p + line.count
        var row = FlatObject()

        func skipBlanks() { while p < end && (p.pointee == 0x20 || p.pointee == 0x09) { p += 1 } }
        func take(_ c: UInt8) -> Bool {
            skipBlanks()
            guard p < end && p.pointee == c else { return false }
            p += 1
            return true
        }
        func literal(_ word: StaticString) -> Bool {
            skipBlanks()
            let n = word.utf8CodeUnitCount
            guard end - p >= n, UnsafeBufferPointer(start: p, count: n).elementsEqual(
                UnsafeBufferPointer(start: word.utf8Start, count: n)) else { return false }
            p += n
            return true
        }
        func number() -> Double? {
            skipBlanks()
            guard p < end, let (v, e) = TextBytes.number(at: p), e <= end else { return nil }
            p = e
            return v
        }

        guard take(UInt8(ascii: "{")) else { return nil }
        if take(UInt8(ascii: "}")) { return row }
        repeat {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let keyStart = p
            while p < end && p.pointee != UInt8(ascii: "\"") {
                if p.pointee == UInt8(ascii: "\\") { return nil }
                p += 1
            }
            guard p < end else { return nil }
            let key = UnsafeBufferPointer(start: keyStart, count: p - keyStart)
            p += 1
            guard take(UInt8(ascii: ":")) else { return nil }
            if take(UInt8(ascii: "[")) {
                var list: [Double] = []
                if !take(UInt8(ascii: "]")) {
                    repeat {
                        if let v = number() { list.append(v) } else if literal("null") { list.append(.nan) } else { return nil }
                    } while take(UInt8(ascii: ","))
                    guard take(UInt8(ascii: "]")) else { return nil }
                }
                if key.elementsEqual("peak".utf8) { row.peak = list }
            } else {
                guard let v = number() else { return nil }
                if key.elementsEqual("frame".utf8) { row.frame = v } else if key.elementsEqual("time".utf8) { row.time = v }
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        skipBlanks()
        return p == end ? row : nil
    }
}
