import JackwaveVocabulary
import JackwaveLevelStream
import JackwaveSoundFiles

/// A level stream as `jackwave --levels` writes it, read back for plotting, kept as the
/// maximum across its channels per row: a single strip, as a voice recorder shows it, since
/// the loudest channel is what clipping or silence is about.
public struct LevelStream: Sendable, Equatable {
    /// The port names (CSV header) or "ch 1"… (JSON Lines).
    public let channelNames: [String]
    /// Rows the stream holds (more than `times` has, when they were merged to fit).
    public var rowsRead: Int
    /// The start of each row's interval, seconds, ascending.
    public let times: [Double]
    /// The highest peak of any channel in each row.
    public let peaks: [Float]
    /// The momentary and short-term curves, when the stream holds loudness (`--loudness`).
    public var loudness: LoudnessCurves?

    public init(channelNames: [String], times: [Double], peaks: [Float], loudness: LoudnessCurves? = nil, rowsRead: Int? = nil) {
        self.loudness = loudness
        self.rowsRead = rowsRead ?? times.count
        self.channelNames = channelNames
        self.times = times
        self.peaks = peaks
    }

    /// Whether `path` names a level stream rather than a sound file.
    public static func isLevelStream(_ path: String) -> Bool {
        ["csv", "jsonl"].contains(FileNames.lowercasedExtension(path))
    }

    /// The length of a row: the spacing of the rows (the last row is as long as the one
    /// before it). A stream of one row has no spacing to go by; it is given 0.1 s.
    public func interval(ofRow i: Int) -> Double {
        if times.count < 2 { return 0.1 }
        let j = i + 1 < times.count ? i : i - 1
        return Swift.max(0, times[j + 1] - times[j])
    }

    /// The end of the stream's last row, when its rows were merged (`rowsRead` > rows kept):
    /// the last kept row may stand for fewer rows than the others.
    public var end: Double?

    /// The time the stream covers: from 0 (the start of the recording) to the end of the
    /// last row.
    public var duration: Double {
        if let end { return end }
        guard let last = times.last else { return 0 }
        return last + interval(ofRow: times.count - 1)
    }

    /// Peaks a plot keeps of a stream, whatever its length (`LevelStreamTable`): 8 MB.
    public static let maximumPeaks = 1 << 21

    /// Reads and checks a whole stream, line by line, keeping at most `maximumPeaks` (rows
    /// merged in pairs past that, their larger peak kept): a week of per-period levels plots
    /// in the memory of a minute's. The first malformed line stops it, named by number.
    public static func read(path: String) throws(PlotError) -> LevelStream {
        try strip(path: path) { () throws(LevelStreamReadError) in try LevelStreamReader.read(path: path, maximumPeaks: maximumPeaks) }
    }

    /// A CSV stream's text as a strip (`LevelStreamReader.parseCSV`), keeping about
    /// `maximumPeaks` (nil: all).
    static func parseCSV(_ text: TextBytes, path: String, maximumPeaks: Int? = nil) throws(PlotError) -> LevelStream {
        try strip(path: path) { () throws(LevelStreamReadError) in try LevelStreamReader.parseCSV(text, path: path, maximumPeaks: maximumPeaks) }
    }

    /// A JSON Lines stream's text as a strip (`LevelStreamReader.parseJSONLines`).
    static func parseJSONLines(_ text: TextBytes, path: String) throws(PlotError) -> LevelStream {
        try strip(path: path) { () throws(LevelStreamReadError) in try LevelStreamReader.parseJSONLines(text, path: path) }
    }

    /// The table `read` gives, reduced to its loudest channel per row; a stream without
    /// rows, or one that cannot be read, is bad input.
    private static func strip(path: String, _ read: () throws(LevelStreamReadError) -> LevelStreamTable) throws(PlotError) -> LevelStream {
        let table: LevelStreamTable
        do throws(LevelStreamReadError) { table = try read() } catch { throw PlotError.badInput(Phrase(verbatim: error.message)) }
        guard table.rowCount > 0 else { throw PlotError.badInput("\(path): the level stream has no rows") }
        var loudest: [Float] = []
        loudest.reserveCapacity(table.rowCount)
        for i in 0..<table.rowCount {
            // NaN (CSV `nan`, JSON `null`) is no level and is skipped; +inf draws as full scale.
            loudest.append(table.peaks(ofRow: i).reduce(Float(0)) { p, x in x.isNaN ? p : Swift.max(p, x) })
        }
        let stream = LevelStream(channelNames: table.channelNames ?? Waveform.channelNames(table.channelCount),
                                 times: table.times, peaks: loudest)
        // A row's loudness is measured at its end: the next row's start.
        let curves = LoudnessCurves.of(table) { stream.times[$0] + stream.interval(ofRow: $0) }
        var merged = LevelStream(channelNames: stream.channelNames, times: stream.times, peaks: loudest, loudness: curves,
                                 rowsRead: table.rowsRead)
        if table.rowsPerKeptRow > 1, let last = table.lastTime {
            // The true last row's end: its time and the spacing of the rows as written.
            merged.end = last + Swift.max(0, table.lastSpacing ?? 0)
        }
        return merged
    }
}
