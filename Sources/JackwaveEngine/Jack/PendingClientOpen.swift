import CJack
import Dispatch
import JackwaveRunSupport
import Synchronization

/// `jack_client_open` on a thread of its own, which the caller polls: a server still shutting
/// down can take the connection and not answer for long, and a run waiting for its server
/// must go on answering OSC and Ctrl-C. One attempt at a time, so a libjack that never returns
/// costs one thread; an abandoned attempt closes its client if it opens after all.
public final class PendingClientOpen: @unchecked Sendable {
    private enum State {
        case opening
        case opened(UncheckedSendable<OpaquePointer>)
        case failed(UInt32)
        case abandoned
    }
    private let state = Mutex<State>(.opening)
    private let done = DispatchSemaphore(value: 0)
    private let server: String?

    /// Starts opening `name` on `server`; nil if no thread could be had. The thread inherits
    /// the caller's signal mask: hold interrupts around this call, since libjack's threads
    /// are made on it.
    public init?(name: String, server: String?) {
        self.server = server
        let started = DetachedThread.start { [self] in
            var status = jack_status_t(rawValue: 0)
            let opened: OpaquePointer? = if let server {
                jackwave_client_open(name, server, &status)
            } else {
                jackwave_client_open(name, nil, &status)
            }
            let keep = state.withLock { current -> Bool in
                if case .abandoned = current { return false }
                current = opened.map { .opened(UncheckedSendable($0)) } ?? .failed(status.rawValue)
                return true
            }
            if !keep, let opened { _ = jack_client_close(opened) }
            done.signal()
        }
        guard started else { return nil }
    }

    /// Waits at most `seconds` for the attempt: the client, or why it failed; nil while it
    /// has not returned.
    public func result(waiting seconds: Double) -> Result<JackClient, JackError>? {
        _ = done.wait(timeout: .now() + seconds)
        let current: State = state.withLock { current in
            let seen = current
            if case .opened = current { current = .abandoned }  // handed out once
            return seen
        }
        switch current {
        case .opening, .abandoned: return nil
        case let .opened(handle): return .success(JackClient(opened: handle.value))
        case let .failed(status): return .failure(.openFailed(status: status, server: server))
        }
    }

    /// Gives the attempt up: a client it opens later is closed by its thread.
    public func abandon() {
        state.withLock { current in
            if case let .opened(handle) = current { _ = jack_client_close(handle.value) }
            current = .abandoned
        }
    }
}
