/// The SMPTE timecode rates jackwave reads. 29.97 fps is read in its drop-frame form only,
/// the one every 29.97 recorder and camera jams; non-drop 29.97 code reads as 30 (its frame
/// labels are the same, and one frame in a thousand cannot be told by ear).
public enum TimecodeRate: Sendable, Equatable, CaseIterable {
    case fps24, fps25, fps2997DropFrame, fps30

    /// Frame labels per second: 24, 25, 30, 30.
    public var nominalFramesPerSecond: Int {
        switch self {
        case .fps24: 24
        case .fps25: 25
        case .fps2997DropFrame, .fps30: 30
        }
    }

    public var isDropFrame: Bool { self == .fps2997DropFrame }

    /// The rate as iXML's TIMECODE_RATE spells it.
    public var ixmlRate: String {
        switch self {
        case .fps24: "24/1"
        case .fps25: "25/1"
        case .fps2997DropFrame: "30000/1001"
        case .fps30: "30/1"
        }
    }

    /// iXML's TIMECODE_FLAG.
    public var ixmlFlag: String { isDropFrame ? "DF" : "NDF" }

    /// As people say it: "24 fps", "25 fps", "29.97 fps drop-frame", "30 fps".
    public var name: String {
        switch self {
        case .fps24: "24 fps"
        case .fps25: "25 fps"
        case .fps2997DropFrame: "29.97 fps drop-frame"
        case .fps30: "30 fps"
        }
    }

    /// A frame's length in seconds, exactly: 1/24, 1/25, 1001/30000, 1/30.
    public var secondsPerFrame: (numerator: Int, denominator: Int) {
        self == .fps2997DropFrame ? (1001, 30000) : (1, nominalFramesPerSecond)
    }

    /// A frame's length in samples at `sampleRate` (1601.6 for 29.97 at 48 kHz).
    public func samplesPerFrame(sampleRate: Int) -> Double {
        Double(sampleRate) * Double(secondsPerFrame.numerator) / Double(secondsPerFrame.denominator)
    }

    /// Frames in a day: drop-frame skips two labels a minute but every tenth.
    public var framesPerDay: Int { isDropFrame ? 24 * 6 * Self.dropFramesPerTenMinutes : 86_400 * nominalFramesPerSecond }

    /// Frames in ten minutes of drop-frame code: 9 minutes of 1798 and one of 1800.
    static let dropFramesPerTenMinutes = 17_982
}

/// A timecode label, hh:mm:ss:ff at a rate, and where it lies in the day.
public struct Timecode: Sendable, Equatable, CustomStringConvertible {
    public var hours, minutes, seconds, frames: Int
    public var rate: TimecodeRate

    /// Nil for a label the rate has no frame for: out of range, or one of the two labels
    /// drop-frame skips at each minute but every tenth.
    public init?(hours: Int, minutes: Int, seconds: Int, frames: Int, rate: TimecodeRate) {
        guard (0..<24).contains(hours), (0..<60).contains(minutes), (0..<60).contains(seconds),
              (0..<rate.nominalFramesPerSecond).contains(frames) else { return nil }
        if rate.isDropFrame && seconds == 0 && frames < 2 && minutes % 10 != 0 { return nil }
        (self.hours, self.minutes, self.seconds, self.frames, self.rate) = (hours, minutes, seconds, frames, rate)
    }

    /// The label of frame `framesSinceMidnight` of the day (wrapped into one day).
    public init?(framesSinceMidnight: Int, rate: TimecodeRate) {
        let day = rate.framesPerDay
        var n = ((framesSinceMidnight % day) + day) % day
        if rate.isDropFrame {
            // Put back the labels skipped before it: 18 in each whole ten minutes, 2 in each
            // whole minute after the first of the current ten.
            let tens = n / TimecodeRate.dropFramesPerTenMinutes, rest = n % TimecodeRate.dropFramesPerTenMinutes
            n += 18 * tens + (rest > 1 ? 2 * ((rest - 2) / 1798) : 0)
        }
        let fps = rate.nominalFramesPerSecond
        self.init(hours: n / (fps * 3600), minutes: n / (fps * 60) % 60, seconds: n / fps % 60, frames: n % fps, rate: rate)
    }

    /// Its frame's number in the day, from 00:00:00:00.
    public var framesSinceMidnight: Int {
        let count = ((hours * 60 + minutes) * 60 + seconds) * rate.nominalFramesPerSecond + frames
        guard rate.isDropFrame else { return count }
        let allMinutes = hours * 60 + minutes
        return count - 2 * (allMinutes - allMinutes / 10)
    }

    /// Where its frame starts, in samples since midnight at `sampleRate` (a fraction at 29.97).
    public func samplesSinceMidnight(sampleRate: Int) -> Double {
        let (numerator, denominator) = rate.secondsPerFrame
        return Double(framesSinceMidnight) * Double(numerator) * Double(sampleRate) / Double(denominator)
    }

    /// `01:02:03:04`; drop-frame puts a `;` before the frames, `01:02:03;04`.
    public var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(hours)):\(two(minutes)):\(two(seconds))\(rate.isDropFrame ? ";" : ":")\(two(frames))"
    }
}
