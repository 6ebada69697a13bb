import Foundation

/// A private `jackd -d dummy` for the end-to-end tests: started under a unique name,
/// reached by clients through `JACK_DEFAULT_SERVER`, stopped by its pid.
///
/// In synchronous mode (`-S`): each cycle waits for every client to finish. In JACK2's
/// default asynchronous mode a cycle starts on time even while a client is still busy
/// with the last one, so on a loaded machine (an xrun) an upstream client runs again and
/// a late client downstream misses one of its periods: a peer recording jackwave's tone,
/// or jackwave recording the test source, then lacks 256 frames, which every
/// sample-exact test would see. Sync mode makes a late client cost time, not samples.
public final class JackServer: @unchecked Sendable {
    public let name: String
    public let sampleRate: Int
    public let period: Int
    private(set) var process: Run.Running

    /// Starts the server and waits until `jack_lsp` sees its ports. A jackd that cannot
    /// start because JACK's server list is full of dead entries (`JackServerRegistry`)
    /// is started again once they are reclaimed.
    public init(sampleRate: Int = 48000, period: Int = 256, capturePorts: Int = 2, playbackPorts: Int = 2) throws {
        name = "jwtest-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        self.sampleRate = sampleRate
        self.period = period
        let arguments = ["-n", name, "-S", "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)",
                         "-C", "\(capturePorts)", "-P", "\(playbackPorts)"]
        process = try Run.start("/usr/bin/jackd", arguments, server: nil)
        var deadline = Date().addingTimeInterval(30)
        var reclaimed = false
        while Date() < deadline {
            if let out = try? Run.tool("/usr/bin/jack_lsp", [], server: name, timeout: 5), out.status == 0,
               out.stdout.contains("system:capture_1") || capturePorts == 0 {
                return
            }
            if !process.isRunning {
                guard !reclaimed, (process.stdoutSoFar + process.stderrSoFar).contains("Too many servers already active") else { break }
                saveLog()
                JackServerRegistry.reclaimDeadEntries()
                reclaimed = true
                // A fresh bound for the new start: reclaiming took some of the first one.
                deadline = Date().addingTimeInterval(30)
                process = try Run.start("/usr/bin/jackd", arguments, server: nil)
            }
            usleep(100_000)
        }
        stop()
        throw TestFailure("jackd -n \(name) did not come up within 30 s\(reclaimed ? " (after reclaiming dead entries of JACK's server list)" : ""): \((process.stdoutSoFar + process.stderrSoFar).suffix(200))")
    }

    /// Stops the server (SIGTERM) and waits for it. One still running after 5 s is killed
    /// (SIGKILL), which leaves its entry in JACK's server list: that slot is reclaimed.
    public func stop() {
        defer { saveLog() }
        guard process.isRunning else { return }
        process.signal(SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            crash()
            reclaimAfterCrash()
        } else {
            _ = process.finish(timeout: 0)
        }
    }

    /// With `JACKWAVE_TEST_SERVER_LOGS` set to a directory, leaves jackd's output there as
    /// `NAME.log`: a client that could not open names its server, and the log says why.
    private func saveLog() {
        guard let logs = ProcessInfo.processInfo.environment["JACKWAVE_TEST_SERVER_LOGS"], !logs.isEmpty else { return }
        try? FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        let text = "jackd \(process.pid) (\(name)):\n" + process.stdoutSoFar + process.stderrSoFar
        try? Data(text.utf8).write(to: URL(fileURLWithPath: "\(logs)/\(name).log"))
    }

    /// Kills the server at once, as a crash would.
    public func crash() {
        process.signal(SIGKILL)
        _ = process.finish(timeout: 5)
    }

    /// Frees the slot a crashed server leaves in JACK's shared server list (at most 8
    /// servers are listed, and a killed one stays listed): JACK reclaims a dead entry when
    /// a server of the same name starts, so start one and stop it cleanly.
    public func reclaimAfterCrash() {
        JackServerRegistry.reclaim(name)
    }

    deinit { stop() }
}

/// A failure of the test machinery itself (not of jackwave).
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
