import JackwaveLoudness

extension LoudnessReport {
    /// One JSON object, whatever the number of files: `{"files": [...], "overall_integrated_lufs": x}`.
    /// Values to 0.001; `null` where there is nothing to measure (silence: −∞).
    static func json(_ measured: [LoudnessCommand.Measured], overall: Double) -> String {
        let files = measured.map { m -> String in
            let s = m.summary
            let fields = [
                "\"file\":\(quoted(m.path))",
                "\"channels\":\(s.weighting.weights.count)",
                "\"sample_rate\":\(s.sampleRate)",
                "\"frames\":\(s.frames)",
                "\"integrated_lufs\":\(number(s.integrated))",
                "\"loudness_range_lu\":\(number(s.loudnessRange))",
                "\"max_momentary_lufs\":\(number(s.maxMomentary))",
                "\"max_short_term_lufs\":\(number(s.maxShortTerm))",
                "\"true_peak_dbtp\":\(number(s.truePeak))",
                "\"sample_peak_dbfs\":\(number(s.samplePeak))",
                "\"true_peak_dbtp_per_channel\":[\(s.truePeaks.map(number).joined(separator: ","))]",
                "\"channel_weights\":[\(s.weighting.weights.map(weight).joined(separator: ","))]",
                "\"channel_weighting\":\(quoted(s.weighting.source.rawValue))",
            ]
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "{\"files\":[\(files.joined(separator: ","))],\"overall_integrated_lufs\":\(number(overall))}\n"
    }

    /// A JSON number to 0.001, or `null` for −∞, ∞ and NaN (which JSON cannot carry).
    static func number(_ x: Double) -> String { x.isFinite ? fixed(x, decimals: 3) : "null" }

    /// BS.1770's weight as libebur128 applies it.
    static func weight(_ w: ChannelWeight) -> String {
        switch w {
        case .front: "1.0"
        case .surround: "1.41"
        case .excluded: "0.0"
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
