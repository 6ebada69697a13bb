/// A run of frames the callback could not store because the audio ring was full. Published
/// only once every frame before `atFrame` is in the audio ring, so the writer can put
/// `count` frames of silence exactly where the audio is missing.
@frozen
public struct DropEvent: BitwiseCopyable, Equatable, Sendable {
    /// Stream frame where the gap begins.
    public var atFrame: Int64
    /// Frames missing.
    public var count: Int64

    // realtime
    public init(atFrame: Int64, count: Int64) {
        self.atFrame = atFrame
        self.count = count
    }
}
