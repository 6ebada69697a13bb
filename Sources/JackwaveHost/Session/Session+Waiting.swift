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
        while frontEnd.interrupts == handled {
            usleep(Self.reconnectPoll)
            parts.flushLines(to: frontEnd)
            frontEnd.holdInterrupts()
            guard let client = try? JackClient(name: options.clientName, server: options.server) else {
                frontEnd.receiveInterrupts()
                continue
            }
            let deadline = Date().addingTimeInterval(Self.sourceWait)
            while sourceCount > 0 && !frontEnd.interruptPending && Date() < deadline
                    && ((try? PortPatterns.resolve(options.portPatterns, among: client.portNames(direction: .output),
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
