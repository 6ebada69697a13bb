import FoundationEssentials
import Glibc

/// The text of a level stream, CSV or JSON Lines: one definition for the live `--levels`
/// export and the offline `jackwave levels`, so both print the same bytes.
///
/// CSV has a header of `frame`, `time` and the channel names; JSON Lines has no header and
/// a `{"frame":F,"time":T,"peak":[P,…]}` object per row. The optional columns (take, gap,
/// dropouts, loudness) are the properties below; a row with no loudness reading holds `nan`
/// (CSV) or `null` (JSON) there. Peaks print as Swift's shortest round-trip `Float` text,
/// so parsing one back gives the identical value.
public struct LevelStreamFormatter: Sendable {
    public let format: LevelStreamFormat
    public let sampleRate: Int
    /// The channels' names, the CSV header's columns after `frame,time`.
    public let channelNames: [String]
    /// Armed runs: a `take` column after `time` (CSV) or a `"take"` field (JSON Lines).
    public var takeColumn = false
    /// Reconnecting runs: a `gap_seconds` column (0 on rows of levels). A server gap is a row of
    /// its own, with the gap's wall-clock seconds and `nan` for every level: never invented levels.
    public var gapColumn = false
    /// Runs that detect dropouts: a `dropouts` column or field counting the dropouts, on any
    /// input, that begin in the row (0 on a CSV gap row; absent on a JSON Lines one).
    public var dropoutColumn = false
    /// Whether rows carry the loudness columns.
    public let loudness: Bool

    public init(format: LevelStreamFormat, sampleRate: Int, channelNames: [String], loudness: Bool = false) {
        self.format = format
        self.sampleRate = sampleRate
        self.channelNames = channelNames
        self.loudness = loudness
    }

    /// The loudness columns' names in a CSV header, before the per-channel `dbtp_<name>`.
    public static let loudnessColumnNames = ["lufs_m", "lufs_s", "lufs_i", "lra"]
    /// The gap column's name (CSV) and field's (JSON Lines).
    public static let gapColumnName = "gap_seconds"
    /// The dropout column's name (CSV) and field's (JSON Lines).
    public static let dropoutColumnName = "dropouts"
    /// MIDI inputs counted in every row (`--midi`): a `midi_1_events` column each (CSV), or
    /// one `midi_events` list (JSON Lines), after `dropouts`. Empty for none.
    public var midiInputs: [String] = []
    /// The MIDI columns' suffix (CSV), and the JSON Lines key.
    public static let midiColumnSuffix = "_events"
    public static let midiKey = "midi_events"
    /// The per-channel true-peak columns' prefix (CSV).
    public static let truePeakPrefix = "dbtp_"

    /// What precedes the first row: the CSV header line, nothing for JSON Lines.
    public var header: String {
        switch format {
        case .csv:
            (["frame", "time"] + (takeColumn ? ["take"] : []) + (gapColumn ? [Self.gapColumnName] : [])
             + (dropoutColumn ? [Self.dropoutColumnName] : []) + midiInputs.map { $0 + Self.midiColumnSuffix } + channelNames
             + (loudness ? Self.loudnessColumnNames + channelNames.map { Self.truePeakPrefix + $0 } : []))
                .map(Self.csvField).joined(separator: ",") + "\n"
        case .jsonl: ""
        }
    }

    /// Appends one row, newline included.
    public func append(_ row: LevelRow, to out: inout String) {
        let time = Self.time(frame: row.frame, sampleRate: sampleRate)
        let gap = row.gapSeconds.map(Self.milliseconds)
        switch format {
        case .csv:
            out += "\(row.frame),\(time)"
            if takeColumn { out += ",\(row.take ?? 0)" }
            if gapColumn { out += "," + (gap ?? "0") }
            if dropoutColumn { out += ",\(row.dropouts ?? 0)" }
            for m in midiInputs.indices { out += ",\(row.midiEvents.flatMap { m < $0.count ? $0[m] : nil } ?? 0)" }
            for p in row.peaks {
                out += ","
                out += Self.number(gap == nil ? p : .nan, json: false)
            }
            if loudness { appendLoudnessCSV(gap == nil ? row.loudness : nil, to: &out) }
            out += "\n"
        case .jsonl:
            if let gap {
                out += "{\"frame\":\(row.frame),\"time\":\(time),\"\(Self.gapColumnName)\":\(gap)}\n"
                return
            }
            out += "{\"frame\":\(row.frame),\"time\":\(time),"
            if takeColumn { out += "\"take\":\(row.take ?? 0)," }
            if dropoutColumn { out += "\"\(Self.dropoutColumnName)\":\(row.dropouts ?? 0)," }
            if !midiInputs.isEmpty {
                out += "\"\(Self.midiKey)\":[" + midiInputs.indices.map { m in
                    String(row.midiEvents.flatMap { m < $0.count ? $0[m] : nil } ?? 0)
                }.joined(separator: ",") + "],"
            }
            out += "\"peak\":["
            for (i, p) in row.peaks.enumerated() {
                if i > 0 { out += "," }
                out += Self.number(p, json: true)
            }
            out += "]"
            if loudness { appendLoudnessJSON(row.loudness, to: &out) }
            out += "}\n"
        }
    }

    /// `frame / sampleRate` in seconds with exactly nine decimals, computed in integers. Nine
    /// whatever the rate: within 0.5 ns of the true time, under 1/1000 of a frame even at
    /// 768 kHz, so `round(time × rate)` gives back the frame; and a week's run is 15 significant
    /// digits, which a `Double` parses exactly.
    public static func time(frame: Int64, sampleRate: Int) -> String {
        let rate = Int64(sampleRate)
        var seconds = frame / rate
        var nanoseconds = ((frame % rate) * 1_000_000_000 + rate / 2) / rate
        if nanoseconds == 1_000_000_000 {
            seconds += 1
            nanoseconds = 0
        }
        let digits = String(nanoseconds)
        return "\(seconds)." + String(repeating: "0", count: 9 - digits.count) + digits
    }

    /// Seconds with three decimals (`4.210`), in integers.
    static func milliseconds(_ seconds: Double) -> String {
        let ms = Int64((max(0, seconds) * 1000).rounded())
        let fraction = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// A peak as text: Swift's shortest round-trip `Float` description (`0.5`, `1.0`,
    /// `3.0517578e-05`). JSON has no infinity or NaN, so those become `null` there; CSV
    /// keeps Swift's `inf` / `nan`, which `Float(String)` reads back.
    public static func number(_ value: Float, json: Bool) -> String {
        if json && !value.isFinite { return "null" }
        return value.description
    }

    /// A CSV field, quoted (RFC 4180) only if it holds a comma, quote or line break.
    public static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
