import Foundation

/// A private headless PipeWire for the end-to-end tests: its own runtime directory, no
/// device, no session manager, no D-Bus. JACK clients reach it through PipeWire's libjack,
/// as `pw-jack` runs them: `Run` does that for any `server:` named by `name`.
public final class PipeWireServer: @unchecked Sendable {
    /// What tests pass as `server:` (the runtime directory, marked as PipeWire's).
    public let name: String
    public let runtimeDirectory: String
    public let process: Run.Running

    /// Where Debian puts PipeWire's libjack (what `pw-jack` puts first on the library path).
    public static var libjackDirectory: String? {
        let lib = "/usr/lib"
        let arches = (try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []
        return arches.map { "\(lib)/\($0)/pipewire-0.3/jack" }
            .first { FileManager.default.fileExists(atPath: $0 + "/libjack.so.0") }
    }

    /// The runtime directory a `server:` name stands for, if it names a PipeWire server.
    public static func runtimeDirectory(ofServer server: String) -> String? {
        server.hasPrefix(prefix) ? String(server.dropFirst(prefix.count)) : nil
    }
    private static let prefix = "pipewire:"

    /// The rate and quantum it was started with (`setting` may change them later).
    public let sampleRate: Int
    public let period: Int
    /// The client that gives it physical ports (`PhysicalPortsClient`), if any.
    private(set) var physicalPorts: Run.Running?

    /// Starts PipeWire at `rate` with `quantum`-frame cycles and waits until a JACK client
    /// can reach it. `capturePorts` and `playbackPorts` give it physical ports named as
    /// jackd's (`PhysicalPortsClient`); 0 and 0 is a bare headless PipeWire.
    public init(rate: Int = 48000, quantum: Int = 256, capturePorts: Int = 2, playbackPorts: Int = 2) throws {
        runtimeDirectory = temporaryDirectory() + "/pipewire-runtime"
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        name = Self.prefix + runtimeDirectory
        sampleRate = rate
        period = quantum
        process = try Run.start("/usr/bin/pipewire", [], server: nil, environment: ["XDG_RUNTIME_DIR": runtimeDirectory])
        let ready = waitUntil(timeout: 30) { [self] in
            setting("clock.force-rate", "\(rate)") && setting("clock.force-quantum", "\(quantum)")
        }
        let reachable = ready && waitUntil(timeout: 30) { [self] in
            (try? Run.tool("/usr/bin/jack_lsp", [], server: name, timeout: 10).status) == 0
        }
        guard reachable else {
            stop()
            throw TestFailure("PipeWire in \(runtimeDirectory) did not come up within 30 s: \(process.stderrSoFar)")
        }
        if capturePorts + playbackPorts > 0 {
            do {
                physicalPorts = try PhysicalPortsClient.start(on: name, capture: capturePorts, playback: playbackPorts,
                                                              serverPID: process.pid)
            } catch {
                stop()
                throw error
            }
        }
    }

    /// `pw-metadata -n settings 0 KEY VALUE`: changes the graph's clock (`clock.force-rate`,
    /// `clock.force-quantum`) as a user or a session manager would. True if it was accepted.
    @discardableResult
    public func setting(_ key: String, _ value: String) -> Bool {
        let out = try? Run.tool("/usr/bin/pw-metadata", ["-n", "settings", "0", key, value], server: nil, timeout: 10,
                                environment: ["XDG_RUNTIME_DIR": runtimeDirectory])
        return out?.status == 0
    }

    /// Stops PipeWire (SIGTERM, then SIGKILL after 5 s) and waits for it; its physical
    /// ports' client first.
    public func stop() {
        if let client = physicalPorts {
            client.signal(SIGTERM)
            _ = client.finish(timeout: 5)
        }
        guard process.isRunning else { return }
        process.signal(SIGTERM)
        if !waitUntil(timeout: 5, { [self] in !process.isRunning }) { process.signal(SIGKILL) }
        _ = process.finish(timeout: 5)
    }

    /// Kills PipeWire at once, as a crash would.
    public func crash() {
        process.signal(SIGKILL)
        _ = process.finish(timeout: 5)
    }

    deinit { stop() }
}
