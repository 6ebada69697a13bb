import FoundationEssentials
import Glibc

/// A text file's bytes, read line by line without a `String` per line or field (an hour of
/// per-period levels is 675 000 lines, where Foundation's splitting costs seconds). The bytes
/// end with a NUL and every line with `\n` or that NUL, so `strtod` never reads past a line.
public struct TextBytes: Sendable {
    private let bytes: [UInt8]

    /// The bytes of `data`, with the NUL that ends the last line.
    public init(_ data: Data) {
        var b = [UInt8](data)
        b.append(0)
        bytes = b
    }

    /// Calls `body` with each line's number (from 1) and its bytes, without the `\n`,
    /// a trailing `\r` or surrounding blanks; blank lines are skipped.
    public func forEachLine(_ body: (Int, UnsafeBufferPointer<UInt8>) throws(LevelStreamReadError) -> Void) throws(LevelStreamReadError) {
        try bytes.withUnsafeBufferPointer { (all: UnsafeBufferPointer<UInt8>) throws(LevelStreamReadError) in
            let base = all.baseAddress!
            let count = all.count - 1
            var start = 0
            var number = 0
            while start < count {
                var end = start
                while end < count && base[end] != UInt8(ascii: "\n") { end += 1 }
                number += 1
                let line = TextBytes.trimmed(UnsafeBufferPointer(start: base + start, count: end - start))
                if !line.isEmpty { try body(number, line) }
                start = end + 1
            }
        }
    }

    /// `bytes` without leading and trailing spaces, tabs and carriage returns.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let base = bytes.baseAddress else { return bytes }
        var lo = 0, hi = bytes.count
        while lo < hi && isBlank(base[lo]) { lo += 1 }
        while hi > lo && isBlank(base[hi - 1]) { hi -= 1 }
        return UnsafeBufferPointer(start: base + lo, count: hi - lo)
    }

    @inline(__always)
    static func isBlank(_ c: UInt8) -> Bool {
        c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r")
    }

    /// The number at `p`, as `strtod` reads it, and where it stopped; nil unless it
    /// starts like a JSON or CSV number (a digit, '-' or '.'), which keeps out "inf",
    /// "nan" and blanks.
    static func number(at p: UnsafePointer<UInt8>) -> (value: Double, end: UnsafePointer<UInt8>)? {
        let c = p.pointee
        guard (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") else {
            return nil
        }
        var end: UnsafeMutablePointer<CChar>? = nil
        let value = p.withMemoryRebound(to: CChar.self, capacity: 1) { strtod($0, &end) }
        guard let stop = end else { return nil }
        let e = UnsafeRawPointer(stop).assumingMemoryBound(to: UInt8.self)
        return e == p ? nil : (value, e)
    }

    /// A whole field that is exactly one number, or Swift's `inf`, `-inf`, `nan`.
    static func number(_ field: UnsafeBufferPointer<UInt8>) -> Double? {
        let f = trimmed(field)
        guard let base = f.baseAddress, !f.isEmpty else { return nil }
        if let (value, end) = number(at: base), end == base + f.count { return value }
        if f.elementsEqual("inf".utf8) { return .infinity }
        if f.elementsEqual("-inf".utf8) { return -.infinity }
        if f.elementsEqual("nan".utf8) { return .nan }
        return nil
    }

    /// The text of some bytes, for an error message.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
