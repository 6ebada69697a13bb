import JackwaveSoundFiles

/// The timecode read from the run's LTC input (`--ltc`), as the files need it: what a frame
/// of this connection's stream was, in samples since midnight. The reader lives elsewhere
/// (it links libltc); the files only ask.
public protocol StreamTimecode: AnyObject, Sendable {
    /// The reading at stream frame `frame`; nil when no code was locked around it (the wall
    /// clock then stamps the file). May wait, a bounded time, for the code just after `frame`
    /// to be read: the writer asks at a file's first frame, which the reader may not have
    /// passed yet.
    func reading(atStreamFrame frame: Int64) -> TimecodeReading?
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
