import JackwaveSoundFiles

/// The timecode read from the run's LTC input (`--ltc`), as the files need it: what a frame
/// of this connection's stream was, in samples since midnight. The reader lives elsewhere
/// (it links libltc); the files only ask.
public protocol StreamTimecode: AnyObject, Sendable {
    /// The reading at stream frame `frame`. May wait, at most `seconds`, for the reader to
    /// have read a little past `frame` (the writer asks at a file's first frame, which the
    /// reader may not have passed yet); never for a reader that has stopped moving.
    func reading(atStreamFrame frame: Int64, waitingAtMost seconds: Double) -> TimecodeAnswer
}

/// What the timecode says of one frame.
public enum TimecodeAnswer: Sendable, Equatable {
    /// The code there.
    case reading(TimecodeReading)
    /// The reader had read past the frame and found no code locked there (none yet, lost,
    /// or noise): the wall clock stamps the file.
    case noCode
    /// The reader had not reached the frame within the wait the audio could afford (it is
    /// behind, or stalled): the wall clock stamps the file.
    case late
}

/// One frame's timecode.
public struct TimecodeReading: Sendable, Equatable {
    /// Samples since midnight at the server's rate, not wrapped into one day, so that the
    /// difference between two readings of one stretch of code is exactly their distance.
    public var samples: Double
    /// The label of the frame holding it, and the rate.
    public var label: TimecodeLabel
    /// Which stretch of continuous code it lies in: two readings in different stretches have
    /// a jump (a re-jam, a new take on the source) between them.
    public var stretch: Int

    public init(samples: Double, label: TimecodeLabel, stretch: Int) {
        self.samples = samples
        self.label = label
        self.stretch = stretch
    }
}

/// Why a file begun with a timecode took the wall clock's time instead (`timecode_missing`).
public enum TimecodeMissing: String, Sendable, Equatable {
    /// No code was locked at its first frame (none yet, lost, noise).
    case noCode = "no_code"
    /// The reader had not read as far as its first frame in time (behind, or stalled).
    case readerBehind = "reader_behind"
}
