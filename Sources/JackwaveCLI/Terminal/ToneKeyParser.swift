/// Turns raw terminal bytes into tone keys: space, arrows (`ESC [ A…D` or `ESC O A…D`),
/// `+`/`=`, `-`/`_`, `q`. Anything else is ignored.
enum ToneKeyParser {
    static func parse(_ bytes: [UInt8]) -> [ToneKey] {
        var keys: [ToneKey] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") {
                switch bytes[i + 2] {
                case UInt8(ascii: "A"): keys.append(.semitoneUp)
                case UInt8(ascii: "B"): keys.append(.semitoneDown)
                case UInt8(ascii: "C"): keys.append(.centUp)
                case UInt8(ascii: "D"): keys.append(.centDown)
                default: break
                }
                i += 3
                continue
            }
            switch b {
            case UInt8(ascii: " "): keys.append(.pause)
            case UInt8(ascii: "+"), UInt8(ascii: "="): keys.append(.louder)
            case UInt8(ascii: "-"), UInt8(ascii: "_"): keys.append(.quieter)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): keys.append(.quit)
            default: break
            }
            i += 1
        }
        return keys
    }
}
