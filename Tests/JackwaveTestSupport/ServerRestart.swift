import Foundation

/// A test server started again where it was (same name, same runtime directory), as a user's
/// server comes back after a restart or a crash: what `--reconnect` waits for.
extension TestServer {
    /// Starts this server's process again after it stopped or crashed; returns once clients
    /// see it. The process is the caller's to stop.
    public func startAgain() throws -> Run.Running {
        switch self {
        case let jackd as JackServer: try JackServer.startAgain(named: jackd.name)
        case let pipewire as PipeWireServer: try PipeWireServer.startAgain(pipewire)
        default: throw TestFailure("no way to start \(name) again")
        }
    }
}

extension JackServer {
    /// jackd started again under `name`, as the fixture starts it; returns once clients
    /// see its ports. A server killed before it leaves its slot in JACK's server list,
    /// which a server of the same name reclaims as it starts.
    public static func startAgain(named name: String) throws -> Run.Running {
        let process = try Run.start("/usr/bin/jackd", ["-n", name, "-S", "-d", "dummy", "-r", "48000", "-p", "256",
                                                       "-C", "2", "-P", "2"], server: nil)
        let up = waitUntil(timeout: 30, interval: 0.1) {
            (try? Run.tool("/usr/bin/jack_lsp", [], server: name, timeout: 5))?.stdout.contains("system:capture_1") == true
        }
        guard up else {
            process.signal(SIGKILL)
            throw TestFailure("jackd -n \(name) did not come back within 30 s")
        }
        return process
    }
}

extension PipeWireServer {
    /// PipeWire started again in `server`'s runtime directory, at its rate and quantum;
    /// returns once a JACK client reaches it.
    public static func startAgain(_ server: PipeWireServer) throws -> Run.Running {
        let process = try Run.start("/usr/bin/pipewire", [], server: nil, environment: ["XDG_RUNTIME_DIR": server.runtimeDirectory])
        let up = waitUntil(timeout: 30) {
            server.setting("clock.force-rate", "\(server.sampleRate)") && server.setting("clock.force-quantum", "\(server.period)")
        } && waitUntil(timeout: 30) {
            (try? Run.tool("/usr/bin/jack_lsp", [], server: server.name, timeout: 10).status) == 0
        }
        guard up else {
            process.signal(SIGKILL)
            throw TestFailure("PipeWire did not come back within 30 s: \(process.stderrSoFar)")
        }
        return process
    }
}
