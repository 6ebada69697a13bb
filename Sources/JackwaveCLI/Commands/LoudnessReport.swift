import JackwaveLoudness

/// `jackwave loudness`' text: one file as a list of measures, several as a table with an
/// overall line. Values to 0.1 (what meters show), `-inf` for silence.
enum LoudnessReport {
    /// The report for `measured` files; `overall` is their pooled integrated loudness.
    static func text(_ measured: [LoudnessCommand.Measured], overall: Double) -> String {
        measured.count == 1 ? single(measured[0]) : table(measured, overall: overall)
    }

    /// One file: a measure a line, labels left, values aligned on the decimal point.
    static func single(_ m: LoudnessCommand.Measured) -> String {
        let s = m.summary
        let rows: [(String, Double, String)] = [
            ("integrated", s.integrated, "LUFS"), ("loudness range", s.loudnessRange, "LU"),
            ("momentary max", s.maxMomentary, "LUFS"), ("short-term max", s.maxShortTerm, "LUFS"),
            ("true peak", s.truePeak, "dBTP"), ("sample peak", s.samplePeak, "dBFS"),
        ]
        var lines = [m.path]
        for (label, value, unit) in rows {
            lines.append("  " + pad(label, 16) + padLeft(oneDecimal(value), 7) + " " + unit)
        }
        lines.append("  " + pad("channels", 16) + s.weighting.summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Several files: a row each (the name last, so long names keep the columns), the overall
    /// integrated loudness, then a note for each file with assumed, surround or LFE channels.
    static func table(_ measured: [LoudnessCommand.Measured], overall: Double) -> String {
        let width = 7
        var lines = [["I", "LRA", "M max", "S max", "TP", "SP"].map { padLeft($0, width) }.joined() + "  file",
                     ["LUFS", "LU", "LUFS", "LUFS", "dBTP", "dBFS"].map { padLeft($0, width) }.joined()]
        for m in measured {
            let s = m.summary
            let values = [s.integrated, s.loudnessRange, s.maxMomentary, s.maxShortTerm, s.truePeak, s.samplePeak]
            lines.append(values.map { padLeft(oneDecimal($0), width) }.joined() + "  " + m.path)
        }
        lines.append(padLeft(oneDecimal(overall), width) + String(repeating: " ", count: 5 * width)
                     + "  overall: integrated loudness of all \(measured.count) files as one programme")
        for m in measured where m.summary.weighting.isNoteworthy {
            lines.append("\(m.path): \(m.summary.weighting.summary)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `-23.0`, `0.5`, `-0.5`, `-inf`: rounded to a tenth, sign kept.
    static func oneDecimal(_ x: Double) -> String { fixed(x, decimals: 1) }

    /// `x` rounded to `decimals` places, as plain text (`-inf`, `inf`, `nan` as such).
    static func fixed(_ x: Double, decimals: Int) -> String {
        guard x.isFinite else { return x.isNaN ? "nan" : (x < 0 ? "-inf" : "inf") }
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let r = (x * Double(scale)).rounded()
        let a = Int(abs(r))
        let fraction = String(a % scale)
        return (r < 0 ? "-" : "") + "\(a / scale)."
            + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    static func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
    static func padLeft(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
}
