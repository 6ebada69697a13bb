/// How to draw; `nil` means the default.
public struct PlotOptions: Sendable, Equatable {
    /// Picture size in pixels (default: `PlotLayout.defaultWidth`, `defaultHeight(lanes:)`).
    public var width: Int?
    public var height: Int?
    /// Seconds from the start of the recording to show (default: all of it).
    public var start: Double?
    public var end: Double?
    /// A dBFS amplitude scale instead of a linear one.
    public var decibels: Bool
    /// A recording's loudness curves (M, S, I) in a lane under its waveform (`--loudness`).
    public var loudness: Bool
    /// The notes of the MIDI file beside a recording (its name with `.mid`) in a piano-roll
    /// lane under its waveform (`--midi`).
    public var midi: Bool

    public init(width: Int? = nil, height: Int? = nil, start: Double? = nil, end: Double? = nil,
                decibels: Bool = false, loudness: Bool = false, midi: Bool = false) {
        self.loudness = loudness
        self.midi = midi
        self.width = width
        self.height = height
        self.start = start
        self.end = end
        self.decibels = decibels
    }

    /// Widths accepted: from room for the labels and 100 columns, up to 16384, well
    /// within cairo's 32767-pixel surfaces.
    public static let widthRange = 200...16384
    /// Heights accepted (a plot of many lanes needs more: `PlotLayout.minimumHeight`).
    public static let heightRange = 100...16384
}
