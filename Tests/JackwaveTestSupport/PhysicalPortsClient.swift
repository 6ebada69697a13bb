import Foundation

/// `scripts/physical-ports/physical_ports.c`: a JACK client that stands in for a sound card
/// on a PipeWire without one, with physical ports named as jackd's dummy backend names its
/// own (`system:capture_N`, `system:playback_N`). Compiled with gcc once per test process.
public enum PhysicalPortsClient {
    /// The compiled client, or why it could not be built.
    public static let executable: Result<String, any Error> = Result {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let out = temporaryDirectory() + "/physical_ports"
        let run = try Run.tool("/usr/bin/gcc", ["-O2", "-o", out, root + "/scripts/physical-ports/physical_ports.c", "-ljack"],
                               server: nil, timeout: 120)
        guard run.status == 0 else { throw TestFailure("gcc physical_ports.c failed:\n\(run.stderr)") }
        return out
    }

    /// Starts it as client `system` on `server` (a `Run` server name), ending when process
    /// `serverPID` does, and waits until it is active.
    public static func start(on server: String, capture: Int, playback: Int, serverPID: pid_t) throws -> Run.Running {
        let client = try Run.start(try executable.get(), ["system", "\(capture)", "\(playback)", "\(serverPID)"], server: server)
        guard waitUntil(timeout: 30, { client.stdoutSoFar.contains("ready") || !client.isRunning }), client.isRunning else {
            client.signal(SIGKILL)
            throw TestFailure("physical_ports did not start: \(client.finish(timeout: 5).stderr)")
        }
        return client
    }
}
