import JackwaveSoundFiles

/// What a run's live stream needs, decided before the run: where, with which password, at
/// what quality (`--quality`, if given; the stream takes the archive's when the codecs take
/// the same kind of setting).
public struct StreamSettings: Sendable {
    public var target: StreamTarget
    public var password: String
    public var compression: CompressionSettings?

    public init(target: StreamTarget, password: String, compression: CompressionSettings?) {
        self.target = target
        self.password = password
        self.compression = compression
    }
}
