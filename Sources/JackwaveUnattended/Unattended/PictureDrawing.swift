/// Draws a finished file's picture for `--plot`: given the recording's path and the
/// picture's, it returns the path drawn (another where that one was taken and may not be
/// replaced), or why it could not, in one line. The CLI hands in JackwavePlot's, so that the
/// modules a run is made of never depend on the drawing library.
public typealias PictureDrawing = @Sendable (_ recording: String, _ picture: String) -> Result<String, PictureFailure>

/// A picture could not be drawn: one line.
public struct PictureFailure: Error {
    public let message: String
    public init(_ message: String) { self.message = message }
}
