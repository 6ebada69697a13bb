import FoundationEssentials
import Glibc
import JackwaveEngine

extension Session {
    /// How often a lost server is looked for: twice a second, a modest load on a machine
    /// waiting for its server, and a gap at most half a second longer than it must be.
    static let reconnectPoll: UInt32 = 500_000
    /// How long a new connection waits for its `--port` patterns to match as many ports as
    /// the first did (the sources restart with the server, a moment after it).
    static let sourceWait = 10.0

    /// Polls for the server every `reconnectPoll` until a client opens, then waits (at most
    /// `sourceWait`) until the `--port` patterns match `sourceCount` ports again. Returns the
    /// client with interrupts held on this thread (its threads must not take them), or nil
    /// once the user interrupts. The run's lines (OSC, hooks) are said meanwhile.
    func waitForServer(sourceCount: Int, parts: SessionParts) -> JackClient? {
        let handled = frontEnd.interrupts
        // The open in progress: polled each pass, never waited on, so that OSC is answered
        // and Ctrl-C taken even while libjack hangs in it (PendingClientOpen says when).
        var pending: PendingClientOpen?
        defer { pending?.abandon() }
        while frontEnd.interrupts == handled {
            parts.flushLines(to: frontEnd)
            if pending == nil {
                // Held while libjack makes its threads on the opening thread, which inherit it.
                frontEnd.holdInterrupts()
                pending = PendingClientOpen(name: options.jack.clientName, server: options.jack.server)
                frontEnd.receiveInterrupts()
            }
            guard let result = pending?.result(waiting: Double(Self.reconnectPoll) / 1e6) else {
                if pending == nil { usleep(Self.reconnectPoll) }
                continue
            }
            pending = nil
            guard case let .success(client) = result else {
                usleep(Self.reconnectPoll)
                continue
            }
            frontEnd.holdInterrupts()
            let deadline = Date().addingTimeInterval(Self.sourceWait)
            while sourceCount > 0 && !frontEnd.interruptPending && Date() < deadline
                    && ((try? PortPatterns.resolve(options.jack.portPatterns, among: client.portNames(direction: .output),
                                                   what: "source"))?.count ?? 0) < sourceCount {
                usleep(50_000)
            }
            if frontEnd.interruptPending {
                _ = client.close(timeout: 2)
                frontEnd.receiveInterrupts()
                return nil
            }
            return client
        }
        return nil
    }
}
