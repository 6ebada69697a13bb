/// Which frames a plot shows, and the pixel column each falls in: frame `f` is in column
/// `⌊(f - firstFrame)·W/n⌋`. Integer arithmetic makes the columns tile the range exactly,
/// every frame in one column whatever the zoom, so no peak falls between two columns.
public struct ColumnGrid: Sendable, Equatable {
    /// The first frame shown.
    public let firstFrame: Int64
    /// How many frames are shown (at least 1).
    public let frameCount: Int64
    /// Pixel columns across the plot (at least 1).
    public let columns: Int

    public init(firstFrame: Int64, frameCount: Int64, columns: Int) {
        precondition(frameCount > 0 && columns > 0 && firstFrame >= 0)
        self.firstFrame = firstFrame
        self.frameCount = frameCount
        self.columns = columns
    }

    /// One past the last frame shown.
    public var endFrame: Int64 { firstFrame + frameCount }

    /// The first frame of column `c` (`c == columns` gives `endFrame`).
    /// `c · n` stays far below `Int64.max` for any file a plot reads and any width cairo
    /// can draw (n ≤ 2^47, `SoundFileHeaderCheck.maximumFrames`; W < 2^15).
    @inline(__always)
    public func firstFrame(ofColumn c: Int) -> Int64 {
        firstFrame + (Int64(c) * frameCount + Int64(columns) - 1) / Int64(columns)
    }

    /// The column holding `frame` (which must be shown).
    @inline(__always)
    public func column(ofFrame frame: Int64) -> Int {
        Int((frame - firstFrame) * Int64(columns) / frameCount)
    }

    /// Frames per column: below 1 the plot is zoomed in past the samples.
    public var framesPerColumn: Double { Double(frameCount) / Double(columns) }

    /// The horizontal position of a (fractional) frame, in columns from the left edge:
    /// the same mapping as `column(ofFrame:)`, continuous, for lines and the time axis.
    public func x(ofFrame frame: Double) -> Double {
        (frame - Double(firstFrame)) * Double(columns) / Double(frameCount)
    }
}
