import JackwaveVocabulary
/// A command-line argument that is wrong: said in one line, exit code 2.
public struct UsageError: Error, Equatable {
    public let message: Phrase
    public init(_ message: Phrase) { self.message = message }
}
