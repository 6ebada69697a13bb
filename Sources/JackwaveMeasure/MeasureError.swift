/// Why a measurement could not be analysed: a library that could not be loaded (exit 1).
public struct MeasureError: Error, Equatable, Sendable {
    /// One line for the user.
    public let message: String
    public init(_ message: String) { self.message = message }
}
