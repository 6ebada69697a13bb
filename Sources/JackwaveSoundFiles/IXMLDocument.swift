/// The `iXML` chunk (iXML specification 2.10) that production sound's editors and conform
/// tools read beside `bext`: the production fields, the timestamp with its timecode rate,
/// the file's place in its take (FILE_SET) and the name of each track. Written once, before
/// the audio; its timestamp is the `bext` TimeReference, so the two never disagree.
public struct IXMLDocument: Sendable, Equatable {
    public static let chunkID = "iXML"

    public var production: ProductionInfo
    /// The take this file belongs to, if numbered.
    public var take: Int?
    public var timestamp: FileTimestamp
    /// 32 hexadecimal digits, unique per file; the pieces of one take share `familyUID`.
    public var fileUID: String
    public var familyUID: String
    /// The file's piece within its take (from 1).
    public var piece: Int
    /// What each channel records, in order: its source port.
    public var trackNames: [String]
    /// The file's depth in bits, nil for floating point or a lossy codec.
    public var bitDepth: Int?

    public init(production: ProductionInfo, take: Int?, timestamp: FileTimestamp, fileUID: String, familyUID: String,
                piece: Int, trackNames: [String], bitDepth: Int?) {
        self.production = production
        self.take = take
        self.timestamp = timestamp
        self.fileUID = fileUID
        self.familyUID = familyUID
        self.piece = piece
        self.trackNames = trackNames
        self.bitDepth = bitDepth
    }

    /// A new unique identifier: 128 random bits as 32 upper-case hexadecimal digits.
    public static func makeUID() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The document, UTF-8.
    public var xml: String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<BWFXML>\n"
        func element(_ name: String, _ value: String?, indent: String = "") {
            guard let value else { return }
            out += "\(indent)<\(name)>\(Self.escaped(value))</\(name)>\n"
        }
        element("IXML_VERSION", "2.10")
        element("PROJECT", production.project)
        element("SCENE", production.scene)
        element("TAKE", take.map(String.init))
        element("TAPE", production.tape)
        element("NOTE", production.note)
        element("FILE_UID", fileUID)
        out += "<SPEED>\n"
        let t = timestamp
        if let code = t.timecode {
            element("MASTER_SPEED", code.rate, indent: "  ")
            element("CURRENT_SPEED", code.rate, indent: "  ")
            element("TIMECODE_RATE", code.rate, indent: "  ")
            element("TIMECODE_FLAG", code.dropFrame ? "DF" : "NDF", indent: "  ")
        } else {
            element("NOTE", "free run: the timestamp is the wall clock, not timecode", indent: "  ")
        }
        element("FILE_SAMPLE_RATE", String(t.sampleRate), indent: "  ")
        element("AUDIO_BIT_DEPTH", bitDepth.map(String.init), indent: "  ")
        element("DIGITIZER_SAMPLE_RATE", String(t.sampleRate), indent: "  ")
        element("TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_HI", String(t.samplesSinceMidnight >> 32), indent: "  ")
        element("TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_LO", String(t.samplesSinceMidnight & 0xFFFF_FFFF), indent: "  ")
        element("TIMESTAMP_SAMPLE_RATE", String(t.sampleRate), indent: "  ")
        out += "</SPEED>\n<FILE_SET>\n"
        element("TOTAL_FILES", "1", indent: "  ")
        element("FAMILY_UID", familyUID, indent: "  ")
        element("FILE_SET_INDEX", String(piece), indent: "  ")
        out += "</FILE_SET>\n<TRACK_LIST>\n"
        element("TRACK_COUNT", String(trackNames.count), indent: "  ")
        for (i, name) in trackNames.enumerated() {
            out += "  <TRACK>\n"
            element("CHANNEL_INDEX", String(i + 1), indent: "    ")
            element("INTERLEAVE_INDEX", String(i + 1), indent: "    ")
            element("NAME", name, indent: "    ")
            out += "  </TRACK>\n"
        }
        out += "</TRACK_LIST>\n</BWFXML>\n"
        return out
    }

    /// `text` as XML character data: the five markup characters as entities, and control
    /// characters (which XML 1.0 cannot carry) dropped. Port names and notes are outside text.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
