
/// The loudness columns of a row, as `LevelStreamFormatter` describes them.
extension LevelStreamFormatter {
    /// `,M,S,I,LRA,TP…`; `nan` in every column for a row without a reading.
    func appendLoudnessCSV(_ columns: LoudnessColumns?, to out: inout String) {
        for v in Self.values(columns, channels: channelNames.count) {
            out += ","
            out += Self.number(v, json: false)
        }
    }

    /// `,"lufs_m":M,"lufs_s":S,"lufs_i":I,"lra":L,"dbtp":[TP,…]`; `null` where there is no
    /// reading (or −∞: JSON has no infinity).
    func appendLoudnessJSON(_ columns: LoudnessColumns?, to out: inout String) {
        let values = Self.values(columns, channels: channelNames.count)
        for (k, name) in Self.loudnessColumnNames.enumerated() {
            out += ",\"\(name)\":"
            out += Self.number(values[k], json: true)
        }
        out += ",\"dbtp\":["
        for (c, v) in values.dropFirst(Self.loudnessColumnNames.count).enumerated() {
            if c > 0 { out += "," }
            out += Self.number(v, json: true)
        }
        out += "]"
    }

    /// The columns in order, M, S, I, LRA, then the true peaks; NaN without a reading.
    static func values(_ columns: LoudnessColumns?, channels: Int) -> [Float] {
        guard let c = columns else { return Array(repeating: .nan, count: loudnessColumnNames.count + channels) }
        return [c.momentary, c.shortTerm, c.integrated, c.range] + c.truePeaks
    }
}
