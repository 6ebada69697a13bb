import JackwaveVocabulary
/// A level stream that could not be opened or written: one line for the user.
public struct LevelStreamError: Error, Equatable {
    public let message: Phrase
    public init(message: Phrase) { self.message = message }
}

/// A level stream that could not be read back: one line for the user, naming the file and,
/// for a malformed row, its line number.
public struct LevelStreamReadError: Error, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
