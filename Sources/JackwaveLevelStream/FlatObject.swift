/// The fields of one JSON Lines row that a reader needs.
struct FlatObject {
    var frame: Double?
    var time: Double?
    var peak: [Double]?
    /// The loudness columns (`--loudness`): M, S, I, LRA (NaN for `null`) and the true peaks.
    var loudness: [Double?] = Array(repeating: nil, count: FlatObject.loudnessKeys.count)
    var dbtp: [Double]?
    /// A gap row's seconds (`gap_seconds`), nil on a row of levels.
    var gapSeconds: Double?
    /// The row's dropout count (`dropouts`), in a stream that counts them.
    var dropouts: Double?

    static let loudnessKeys = LevelStreamFormatter.loudnessColumnNames

    /// The loudness values in the table's order (M, S, I, LRA, true peaks), if the line
    /// has every loudness key; nil if it has none of them.
    var loudnessValues: [Double]? {
        guard let dbtp, loudness.allSatisfy({ $0 != nil }) else { return nil }
        return loudness.map { $0! } + dbtp
    }

    /// Whether the line names any loudness key.
    var mentionsLoudness: Bool { dbtp != nil || loudness.contains { $0 != nil } }

    /// Stores a scalar under `key` if it is one the reader needs.
    mutating func set(_ key: UnsafeBufferPointer<UInt8>, _ v: Double) {
        if key.elementsEqual("frame".utf8) { frame = v } else if key.elementsEqual("time".utf8) { time = v } else if
            key.elementsEqual(LevelStreamFormatter.gapColumnName.utf8) { gapSeconds = v } else if
            key.elementsEqual(LevelStreamFormatter.dropoutColumnName.utf8) { dropouts = v } else if
            let k = Self.loudnessKeys.firstIndex(where: { key.elementsEqual($0.utf8) }) { loudness[k] = v }
    }

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
                if key.elementsEqual("peak".utf8) { row.peak = list } else if key.elementsEqual("dbtp".utf8) { row.dbtp = list }
            } else if let v = number() {
                row.set(key, v)
            } else {
                // `null` only where a loudness column may be empty.
                guard literal("null"), Self.loudnessKeys.contains(where: { key.elementsEqual($0.utf8) }) else { return nil }
                row.set(key, .nan)
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        skipBlanks()
        return p == end ? row : nil
    }
}
