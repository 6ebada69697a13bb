
/// A level stream read back: each row's first frame, time and per-channel peaks, as
/// `LevelStreamFormatter` wrote them.
///
/// Peaks are kept as `Float`, the type they were measured in: the writer prints Swift's
/// shortest round-trip text, so a row read back holds the identical bits.
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
    public internal(set) var hasDropouts: Bool
    /// Every row's dropout count, when the stream has them.
    public internal(set) var dropouts: [Int] = []

    public init(channelNames: [String]?, channelCount: Int, hasLoudness: Bool = false, hasDropouts: Bool = false) {
        self.channelNames = channelNames
        self.channelCount = channelCount
        self.hasLoudness = hasLoudness
        self.hasDropouts = hasDropouts
    }

    /// Keeps the loudness of the row just appended: M, S, I, LRA, then one true peak per
    /// channel (`values.count == 4 + channelCount`).
    mutating func appendLoudness(_ values: UnsafeBufferPointer<Double>) {
        guard values.contains(where: { !$0.isNaN }) else { loudness.append(nil); return }
        loudness.append(LoudnessColumns(momentary: Float(values[0]), shortTerm: Float(values[1]),
                                        integrated: Float(values[2]), range: Float(values[3]),
                                        truePeaks: values[4...].map(Float.init)))
    }

    /// Rows read.
    public var rowCount: Int { frames.count }

    /// Keeps the dropout count of the row just appended.
    mutating func appendDropouts(_ count: Double, at place: String) throws(LevelStreamReadError) {
        guard count >= 0, count == count.rounded(), count < 1e15 else {
            throw LevelStreamReadError("\(place): dropouts '\(count)' is not a count")
        }
        dropouts.append(Int(count))
    }

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
        if let previous = times.last, time < previous {
            throw LevelStreamReadError("\(place): time \(text(1)) goes back before \(previous)")
        }
        for (k, p) in rowPeaks.enumerated() where !p.isNaN {
            // +inf and NaN are data the signal held, not damage: the writer passes them on.
            guard p >= 0 else {
                throw LevelStreamReadError("\(place): peak '\(text(2 + k))' is not a level (a number ≥ 0)")
            }
        }
        frames.append(Int64(frame))
        times.append(time)
        for p in rowPeaks { peaks.append(Float(p)) }
    }
}
