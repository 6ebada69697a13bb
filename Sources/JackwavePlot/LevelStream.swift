import Foundation
import JackwaveHost

/// A level stream as `jackwave --levels` writes it, read back for plotting.
///
/// Two formats, chosen by the file's extension:
/// - CSV (`.csv`): a header `frame,time,<port names…>`, then rows `frame,time,peak1,peak2,…`;
/// - JSON Lines (`.jsonl`): one `{"frame":123,"time":0.0025625,"peak":[0.1,0.2]}` per line.
///
/// Peaks are linear, 1.0 = full scale; the writer spells a non-finite peak `inf`/`nan`
/// in CSV and `null` in JSON. A multi-channel stream is kept as the maximum across
/// its channels, one value per row: the picture is a single strip, as a voice recorder
/// shows it, and the loudest channel is what clipping or silence is about.
public struct LevelStream: Sendable, Equatable {
    /// The port names (CSV header) or "ch 1"… (JSON Lines).
    public let channelNames: [String]
    /// The start of each row's interval, seconds, ascending.
    public let times: [Double]
    /// The highest peak of any channel in each row.
    public let peaks: [Float]

    public init(channelNames: [String], times: [Double], peaks: [Float]) {
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

    /// The time the stream covers: from 0 (the start of the recording) to the end of the
    /// last row.
    public var duration: Double {
        guard let last = times.last else { return 0 }
        return last + interval(ofRow: times.count - 1)
    }

    /// Reads and checks a whole stream. The first malformed line stops it, named by number.
    public static func read(path: String) throws(PlotError) -> LevelStream {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw PlotError.badInput("\(path): cannot read it (\(error.localizedDescription))")
        }
        let text = TextBytes(data)
        let stream: LevelStream
        if FileNames.lowercasedExtension(path) == "jsonl" {
            stream = try parseJSONLines(text, path: path)
        } else {
            stream = try parseCSV(text, path: path)
        }
        guard !stream.times.isEmpty else { throw PlotError.badInput("\(path): the level stream has no rows") }
        return stream
    }

    /// Collects rows, checking each one's numbers as it comes.
    struct Rows {
        var times: [Double] = []
        var peaks: [Float] = []

        /// Checks one row and keeps its time and its loudest peak. `text` gives a field's
        /// text for the error message (0 frame, 1 time, 2… peaks).
        mutating func append(frame: Double, time: Double, peaks rowPeaks: UnsafeBufferPointer<Double>,
                             at place: String, text: (Int) -> String) throws(PlotError) {
            guard frame >= 0, frame == frame.rounded(), frame < 1e18 else {
                throw PlotError.badInput("\(place): frame '\(text(0))' is not a whole number")
            }
            guard time.isFinite, time >= 0 else {
                throw PlotError.badInput("\(place): time '\(text(1))' is not a number of seconds")
            }
            if let previous = times.last, time < previous {
                throw PlotError.badInput("\(place): time \(text(1)) goes back before \(previous)")
            }
            var loudest = 0.0
            for (k, p) in rowPeaks.enumerated() {
                // The writer passes on what the signal held: +inf (drawn as full scale) and
                // NaN (CSV `nan`, JSON `null`: no level, skipped) are data, not damage.
                if p.isNaN { continue }
                guard p >= 0 else {
                    throw PlotError.badInput("\(place): peak '\(text(2 + k))' is not a level (a number ≥ 0)")
                }
                loudest = Swift.max(loudest, p)
            }
            times.append(time)
            peaks.append(Float(loudest))
        }
    }
}
