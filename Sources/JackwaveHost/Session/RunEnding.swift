/// Why a run ended.
public enum RunEnding: Equatable, Sendable {
    /// The duration was reached, or a bare tone finished its fade.
    case finished
    /// Ctrl-C, SIGTERM or `q`.
    case interrupted
    /// The JACK server shut down or died.
    case serverGone
    /// The server's sample rate changed (a file has one rate).
    case sampleRateChanged(from: Int, to: Int)
    /// The recording could not be written (disk full, …).
    case writeFailed(String)
    /// The level stream could not be written (a closed pipe, …).
    case levelsFailed(String)
    /// The client could not be activated (its line is said where it failed).
    case activationFailed

    /// 0 for an ending the user asked for, 1 for a runtime failure.
    public var exitCode: Int32 {
        switch self {
        case .finished, .interrupted: 0
        default: 1
        }
    }

    /// The one error line that explains a failure, nil for a normal end.
    var errorLine: String? {
        switch self {
        case .serverGone: "the JACK server went away; the file holds everything received before it did"
        case let .sampleRateChanged(from, to):
            "the JACK server's sample rate changed from \(from) Hz to \(to) Hz; stopped, since a file has one rate (everything received at \(from) Hz is in it)"
        case let .writeFailed(message): "\(message); stopped, the file holds everything written before the error"
        case let .levelsFailed(message): message
        case .finished, .interrupted, .activationFailed: nil
        }
    }
}
