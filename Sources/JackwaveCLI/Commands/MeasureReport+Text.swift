import Glibc
import JackwaveMeasure
import JackwaveSoundFiles

extension MeasureReport {
    /// The table on stdout: a column per channel, a row per figure.
    func text() -> String {
        var lines = ["jackwave measure: \(capture.sampleRate) Hz, period \(capture.period), \(channels) channel\(channels == 1 ? "" : "s")"
                     + (plan.settings.quick ? ", quick" : "")]
        for c in 0..<channels {
            let p = ports(c)
            lines.append("  \(c + 1): \(p.output) -> \(p.destination ?? "nowhere") ... \(p.source) -> \(p.input)")
        }
        let level = plan.settings.levelDBFS, hz = plan.settings.toneFrequency
        var rows: [(String, (ChannelResult, Int) -> String)] = [
            ("latency (frames)", { r, _ in r.latency.map { fixed($0.frames, 3) } ?? "-" }),
            ("latency (ms)", { r, _ in r.latency.map { fixed($0.frames / plan.sampleRate * 1000, 3) } ?? "-" }),
            ("declared by JACK", { _, c in declaredFrames(c).map(String.init) ?? "-" }),
            ("measured - declared", { _, c in excessFrames(c).map { fixed($0, 3) } ?? "-" }),
            ("polarity", { r, _ in r.latency.map { $0.inverted ? "inverted" : "normal" } ?? "-" }),
            ("response 20 Hz-20 kHz", { r, _ in spread(r.response.map(\.db)) }),
        ]
        for hz in [20.0, 100, 10_000, 20_000] {
            rows.append(("  at \(hz >= 1000 ? "\(Int(hz / 1000)) kHz" : "\(Int(hz)) Hz") (dB)", { r, _ in
                r.response.min { abs(log2($0.hz / hz)) < abs(log2($1.hz / hz)) }.map { fixed($0.db, 3) } ?? "-"
            }))
        }
        for order in 2...5 {
            rows.append(("H\(order) at 1 kHz (dBc)", { r, _ in
                r.harmonics.first { $0.order == order }.flatMap { MeasureReport.level($0, near: 1000) }.map { fixed($0, 1) } ?? "-"
            }))
        }
        rows += [
            ("THD+N \(hz.plainText) Hz \(level.plainText) dBFS", { r, _ in r.thdN.map { fixed($0.thdNDB, 1) + " dB" } ?? "-" }),
            ("  (percent)", { r, _ in r.thdN.map { fixed($0.thdNPercent, 4) + " %" } ?? "-" }),
            ("noise (AES17, dBFS)", { r, _ in r.noiseDBFS.map { fixed($0, 1) } ?? "-" }),
            ("dynamic range (dB)", { r, _ in r.dynamicRangeDB.map { fixed($0, 1) } ?? "-" }),
        ]
        if channels > 1 {
            // Row: the channel whose sweep played; column: the input it leaked into.
            for from in 0..<channels {
                rows.append(("crosstalk from \(from + 1) (dB)", { _, to in
                    to == from ? "" : result.crosstalk[from][to].map { fixed($0, 1) } ?? "-"
                }))
            }
        }
        let width = rows.map(\.0.count).max()! + 2
        let header = String(repeating: " ", count: width) + (1...channels).map { pad("ch \($0)", 12) }.joined()
        lines.append(header)
        for (label, value) in rows {
            let cells = result.channels.enumerated().map { pad(value($1, $0), 12) }.joined()
            lines.append(label + String(repeating: " ", count: width - label.count) + cells)
        }
        if capture.attempts > 1 { lines.append("measured \(capture.attempts) times: the server skipped jackwave's cycles in the earlier attempts") }
        if capture.xruns > 0 { lines.append("\(capture.xruns) xrun\(capture.xruns == 1 ? "" : "s") during the measurement") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `-0.01 .. +0.02 dB`: the lowest and highest of `values`.
    func spread(_ values: [Double]) -> String {
        guard let low = values.min(), let high = values.max() else { return "-" }
        return "\(fixed(low, 2))..\(fixed(high, 2))"
    }

    /// `x` with `decimals` places; `-inf`, `inf`, `nan` as such.
    func fixed(_ x: Double, _ decimals: Int) -> String { LoudnessReport.fixed(x, decimals: decimals) }

    func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: Swift.max(1, width - s.count)) + s }
}
