/// A number as a Standard MIDI File writes its delta times and lengths: seven bits a byte,
/// the most significant first, every byte but the last with its top bit set. The format
/// allows four bytes, so 0x0FFF_FFFF is the largest; a longer wait is bridged
/// (`MidiTrackChunk`), never written in a fifth byte that readers would refuse.
enum VariableLengthQuantity {
    /// The largest value four bytes hold.
    static let maximum = 0x0FFF_FFFF

    /// Appends `value` to `bytes` in as few bytes as it needs (one for 0…127, the only form
    /// the format gives such a number); false, and nothing appended, for a value outside
    /// 0…`maximum`.
    @discardableResult
    static func append(_ value: Int, to bytes: inout [UInt8]) -> Bool {
        guard value >= 0, value <= maximum else { return false }
        var shift = 21
        while shift > 0 && value >> shift == 0 { shift -= 7 }
        while shift > 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift) & 0x7F | 0x80)
            shift -= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value) & 0x7F)
        return true
    }

    /// `value`'s bytes, nil outside 0…`maximum`.
    static func bytes(_ value: Int) -> [UInt8]? {
        var out: [UInt8] = []
        return append(value, to: &out) ? out : nil
    }
}
