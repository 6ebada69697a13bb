/// A run of frames the callback could not store because the audio ring was full.
///
/// The callback publishes it (through its own small ring) only after every frame before
/// `atFrame` has been committed to the audio ring, so the writer can put `count` frames of
/// silence exactly where the audio is missing and keep the file's timeline true.
@frozen
public struct DropEvent: BitwiseCopyable, Equatable, Sendable {
    /// Stream frame where the gap begins.
    public var atFrame: Int64
    /// Frames missing.
    public var count: Int64

    public init(atFrame: Int64, count: Int64) {
        self.atFrame = atFrame
        self.count = count
    }
}
