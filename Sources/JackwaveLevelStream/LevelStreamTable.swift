/// A level stream read back, as `LevelStreamFormatter` wrote it. Peaks are kept as `Float`,
/// the type they were measured in, so a row read back holds the identical bits.
///
/// With `maximumRows`, memory is bounded however long the stream (a picture needs a few
/// thousand bars): a full table merges neighbouring rows in pairs (the larger peak, the later
/// loudness, the summed dropouts), and later rows merge as many to one as kept rows do.
public struct LevelStreamTable: Sendable, Equatable {
    /// The channels' names from a CSV header; nil for JSON Lines, which carries none.
    public let channelNames: [String]?
    /// Peaks per row.
    public let channelCount: Int
    /// Each row's first frame, from the start of the run.
    public internal(set) var frames: [Int64] = []
    /// Each row's time in seconds, ascending.
    public internal(set) var times: [Double] = []
    /// Every row's peaks, row after row (`channelCount` each); NaN where the stream said
    /// `nan` (CSV) or `null` (JSON).
    public internal(set) var peaks: [Float] = []
    /// Whether the stream carries loudness columns (`--loudness`).
    public let hasLoudness: Bool
    /// Every row's loudness, when it has them; nil for a row whose columns were all empty
    /// (`nan`/`null`: no reading yet, or the analysis stopped).
    public internal(set) var loudness: [LoudnessColumns?] = []
    /// Whether the stream counts dropouts per row (a `dropouts` column or field).
    public let hasDropouts: Bool
    /// Every kept row's dropout count (the sum of the rows merged into it), when the stream
    /// has them.
    public internal(set) var dropouts: [Int] = []
    /// The most rows kept (even; nil for all of them).
    public let maximumRows: Int?
    /// Rows of the stream each kept row stands for (1 until the table first filled up).
    public private(set) var rowsPerKeptRow = 1
    /// Rows read, kept or merged.
    public private(set) var rowsRead = 0
    /// The last row's time (a kept row's time is its first row's), for the order check and
    /// the stream's end; and how far it came after the row before it.
    public private(set) var lastTime: Double?
    public private(set) var lastSpacing: Double?

    /// `maximumPeaks`: keep about that many peaks (`maximumRows` follows from the channels),
    /// nil to keep every row.
    public init(channelNames: [String]?, channelCount: Int, hasLoudness: Bool = false, hasDropouts: Bool = false,
                maximumPeaks: Int? = nil) {
        self.channelNames = channelNames
        self.channelCount = channelCount
        self.hasLoudness = hasLoudness
        self.hasDropouts = hasDropouts
        maximumRows = maximumPeaks.map { Self.rowBudget(channels: channelCount, peaks: $0) }
    }

    /// Rows kept of `channels` for about `peaks` peaks: at least 1024 (a picture's bars),
    /// at most 65536 (four bars per pixel of the widest picture), even.
    static func rowBudget(channels: Int, peaks: Int) -> Int {
        Swift.min(1 << 16, Swift.max(1024, peaks / Swift.max(1, channels))) & ~1
    }

    /// Keeps the loudness of the row just appended: M, S, I, LRA, then one true peak per
    /// channel (`values.count == 4 + channelCount`). A merged row keeps the latest.
    mutating func appendLoudness(_ values: UnsafeBufferPointer<Double>) {
        let columns = values.contains(where: { !$0.isNaN })
            ? LoudnessColumns(momentary: Float(values[0]), shortTerm: Float(values[1]), integrated: Float(values[2]),
                              range: Float(values[3]), truePeaks: values[4...].map(Float.init))
            : nil
        if loudness.count == frames.count { loudness[loudness.count - 1] = columns ?? loudness[loudness.count - 1] }
        else { loudness.append(columns) }
    }

    /// Keeps the dropout count of the row just appended; a merged row adds it to its own.
    mutating func appendDropouts(_ count: Double, at place: String) throws(LevelStreamReadError) {
        guard count >= 0, count == count.rounded(), count < 1e15 else {
            throw LevelStreamReadError("\(place): dropouts '\(count)' is not a count")
        }
        if dropouts.count == frames.count { dropouts[dropouts.count - 1] = Self.sum(dropouts[dropouts.count - 1], Int(count)) }
        else { dropouts.append(Int(count)) }
    }

    /// Two counts of merged rows added, stopping at `Int.max`: each row may say up to 10^15,
    /// and a kept row of a long stream stands for thousands of rows.
    static func sum(_ a: Int, _ b: Int) -> Int {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : total
    }

    /// Rows read.
    public var rowCount: Int { frames.count }

    /// The peaks of row `i`.
    public func peaks(ofRow i: Int) -> ArraySlice<Float> {
        peaks[(i * channelCount)..<((i + 1) * channelCount)]
    }

    /// Checks one row and keeps it. `text` gives a field's text for the error message
    /// (0 frame, 1 time, 2… peaks).
    mutating func append(frame: Double, time: Double, peaks rowPeaks: UnsafeBufferPointer<Double>,
                         at place: String, text: (Int) -> String) throws(LevelStreamReadError) {
        guard frame >= 0, frame == frame.rounded(), frame < 1e18 else {
            throw LevelStreamReadError("\(place): frame '\(text(0))' is not a whole number")
        }
        guard time.isFinite, time >= 0 else {
            throw LevelStreamReadError("\(place): time '\(text(1))' is not a number of seconds")
        }
        guard time < LevelStreamReader.maximumSeconds else {
            throw LevelStreamReadError("\(place): time '\(text(1))' is past any recording (a level stream's times are under 10^12 s)")
        }
        if let previous = lastTime, time < previous {
            throw LevelStreamReadError("\(place): time \(text(1)) goes back before \(previous)")
        }
        for (k, p) in rowPeaks.enumerated() where !p.isNaN {
            // +inf and NaN are data the signal held, not damage: the writer passes them on.
            guard p >= 0 else {
                throw LevelStreamReadError("\(place): peak '\(text(2 + k))' is not a level (a number ≥ 0)")
            }
        }
        lastSpacing = lastTime.map { time - $0 }
        lastTime = time
        defer { rowsRead += 1 }
        if rowsRead % rowsPerKeptRow != 0 {
            // Merged into the kept row it belongs to: each channel's larger peak.
            let base = peaks.count - channelCount
            for (k, p) in rowPeaks.enumerated() { peaks[base + k] = Self.larger(peaks[base + k], Float(p)) }
            return
        }
        if let maximumRows, frames.count == maximumRows { halve() }
        frames.append(Int64(frame))
        times.append(time)
        for p in rowPeaks { peaks.append(Float(p)) }
    }

    /// Merges the kept rows in pairs (the table is full: `maximumRows`, an even number).
    private mutating func halve() {
        let half = frames.count / 2
        for i in 0..<half {
            frames[i] = frames[2 * i]
            times[i] = times[2 * i]
            for c in 0..<channelCount {
                peaks[i * channelCount + c] = Self.larger(peaks[2 * i * channelCount + c], peaks[(2 * i + 1) * channelCount + c])
            }
            if hasLoudness { loudness[i] = loudness[2 * i + 1] ?? loudness[2 * i] }
            if hasDropouts { dropouts[i] = Self.sum(dropouts[2 * i], dropouts[2 * i + 1]) }
        }
        frames.removeLast(frames.count - half)
        times.removeLast(times.count - half)
        peaks.removeLast(peaks.count - half * channelCount)
        if hasLoudness { loudness.removeLast(loudness.count - half) }
        if hasDropouts { dropouts.removeLast(dropouts.count - half) }
        rowsPerKeptRow *= 2
    }

    /// The larger of two peaks, NaN (no level) giving way to any number.
    static func larger(_ a: Float, _ b: Float) -> Float {
        a.isNaN ? b : b.isNaN ? a : Swift.max(a, b)
    }
}
