/// The columns after `frame,time` in a CSV level stream's header: the channels' peaks, and
/// with loudness `lufs_m,lufs_s,lufs_i,lra,dbtp_<channel>…` (one true peak per channel).
struct LoudnessHeader {
    let channelNames: [String]
    let hasLoudness: Bool

    /// Loudness columns for `channels` channels: M, S, I, LRA and a true peak each.
    static func extraColumns(_ channels: Int) -> Int {
        LevelStreamFormatter.loudnessColumnNames.count + channels
    }

    /// Splits the header's columns at `lufs_m`; the rest must be exactly the loudness
    /// columns for the channels before it.
    init(_ columns: [String], path: String) throws(LevelStreamReadError) {
        let names = LevelStreamFormatter.loudnessColumnNames
        guard let start = columns.firstIndex(of: names[0]) else {
            channelNames = columns
            hasLoudness = false
            return
        }
        let channels = Array(columns[..<start])
        let expected = names + channels.map { LevelStreamFormatter.truePeakPrefix + $0 }
        guard !channels.isEmpty, Array(columns[start...]) == expected else {
            throw LevelStreamReadError("\(path): the loudness columns must be \(expected.joined(separator: ",")) after the channels")
        }
        channelNames = channels
        hasLoudness = true
    }
}
