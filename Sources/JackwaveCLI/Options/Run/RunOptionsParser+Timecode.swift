import JackwaveHost
import JackwaveRunSupport
import JackwaveSoundFiles

extension RunOptionsParser {
    /// Timecode in, and the production metadata the files carry (docs/timecode.md).
    static let timecode = OptionSection<RunOptions>("Timecode and production", [
        Option("--ltc", value: "PORT", kind: .port, needs: "--record",
               help: "read SMPTE LTC from PORT (24, 25, 29.97 DF or 30 fps, found by itself):",
                     "each file's bext and iXML time is its first frame's timecode") { o, s throws(UsageError) in
            o.timecode.ltcPort = try s.nonEmptyValue()
        },
        Option("--project", value: "TEXT", needs: "--record", help: "the project, in each file's iXML and bext") { o, s throws(UsageError) in
            o.timecode.production.project = try productionField(&s)
        },
        Option("--scene", value: "TEXT", needs: "--record", help: "the scene (12A), in each file's iXML and bext") { o, s throws(UsageError) in
            o.timecode.production.scene = try productionField(&s)
        },
        Option("--take", value: "N", needs: "--record",
               help: "the take number (1–99999); armed, each take counts on from it") { o, s throws(UsageError) in
            o.timecode.production.firstTake = try s.integer(in: 1...99_999)
        },
        Option("--tape", value: "TEXT", needs: "--record", help: "the tape or roll, in each file's iXML and bext") { o, s throws(UsageError) in
            o.timecode.production.tape = try productionField(&s)
        },
        Option("--note", value: "TEXT", needs: "--record", help: "a note, in each file's iXML and bext") { o, s throws(UsageError) in
            o.timecode.production.note = try productionField(&s)
        },
    ])

    /// A production field: outside text that goes into XML and a 256-byte `bext`
    /// description, so bounded, and without control characters (a line break would start
    /// another `bext` field).
    static func productionField(_ s: inout ArgumentScanner) throws(UsageError) -> String {
        let text = try s.nonEmptyValue()
        guard text.utf8.count <= ProductionInfo.maximumFieldBytes else {
            throw UsageError("\(s.current) is \(text.utf8.count) bytes; at most \(ProductionInfo.maximumFieldBytes)")
        }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw UsageError("\(s.current) holds a control character")
        }
        return text
    }
}
