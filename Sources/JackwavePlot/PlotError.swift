import JackwaveVocabulary
/// Why a plot was not drawn: the input or the options were wrong (exit 2, nothing
/// written), or drawing or writing the picture failed (exit 1).
public struct PlotError: Error, Equatable {
    /// `badInput`: the user can fix the command (exit 2); `failed`: the picture could
    /// not be made or written (exit 1).
    public enum Kind: Sendable, Equatable { case badInput, failed }
    public let kind: Kind
    /// One line for the user, without the "jackwave: error: " prefix.
    public let message: Phrase

    public static func badInput(_ message: Phrase) -> PlotError { PlotError(kind: .badInput, message: message) }
    public static func failed(_ message: Phrase) -> PlotError { PlotError(kind: .failed, message: message) }
}
