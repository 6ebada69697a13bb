/// A command-line argument that is wrong: said in one line, exit code 2.
public struct UsageError: Error, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
