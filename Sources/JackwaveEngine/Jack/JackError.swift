import CJack
import FoundationEssentials
import Glibc

/// What can go wrong talking to JACK outside the realtime thread.
public enum JackError: Error, Equatable {
    case openFailed(status: UInt32, server: String?)
    case portRegistrationFailed(String)
    case callbackRejected(String)
    case activationFailed

    /// One line for the user, saying what to do.
    public var message: String {
        switch self {
        case let .openFailed(status, server):
            let named = server ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"]
            let which = named.map { "JACK server '\($0)'" } ?? "the default JACK server"
            if status & JackServerFailed.rawValue != 0 {
                let start = named.map { "jackd -n \($0) -d alsa (or scripts/jackd-dummy \($0))" }
                    ?? "jackd -d alsa, or scripts/jackd-dummy for a server without a sound card"
                return "cannot connect to \(which): is it running? Start one with: \(start)"
            }
            return "cannot open a JACK client on \(which) (status 0x\(String(status, radix: 16)))"
        case let .portRegistrationFailed(name): return "cannot register JACK port \(name)"
        case let .callbackRejected(what): return "JACK refused the \(what) callback"
        case .activationFailed: return "cannot activate the JACK client"
        }
    }
}
