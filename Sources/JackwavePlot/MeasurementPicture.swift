/// What `jackwave measure --plot` draws, as plain curves (the plot knows nothing of the
/// analysis): the frequency response of each channel, its harmonics against frequency, and
/// its impulse response around the peak.
public struct MeasurementPicture: Sendable {
    /// One curve: `y` at each `x`, and the legend's words.
    public struct Curve: Sendable {
        public var x: [Double]
        public var y: [Double]
        public var label: String
        public init(x: [Double], y: [Double], label: String) {
            self.x = x
            self.y = y
            self.label = label
        }
    }

    public var title: String
    /// Level relative to 1 kHz against frequency, one per channel.
    public var responses: [Curve]
    /// Per channel, H2 to H5 (dBc) against the fundamental's frequency.
    public var harmonics: [[Curve]]
    /// Per channel, the impulse response (normalized to its peak) against milliseconds.
    public var impulses: [Curve]

    public init(title: String, responses: [Curve], harmonics: [[Curve]], impulses: [Curve]) {
        self.title = title
        self.responses = responses
        self.harmonics = harmonics
        self.impulses = impulses
    }
}
