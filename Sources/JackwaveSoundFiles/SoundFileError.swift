/// A sound file that could not be opened, read or written: which file, and why.
public struct SoundFileError: Error, Equatable {
    public let path: String
    public let reason: String
    public var message: String { "\(path): \(reason)" }
}
