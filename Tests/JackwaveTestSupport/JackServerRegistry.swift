import Foundation

/// JACK2's list of running servers, in the shared-memory registry every jackd on the machine
/// shares (`/dev/shm/jack-shm-registry`): at most 8 entries, each a server's pid and name.
///
/// A server killed with SIGKILL (a crash test, or a test run that was itself killed) stays
/// listed, and jackd reclaims an entry only when a server of the same name starts. Once 8
/// dead entries pile up, every new jackd on the machine fails with "Too many servers
/// already active", whatever its name: on a machine where several test runs start and kill
/// servers, this happens. `reclaimDeadEntries` frees them the way JACK itself does.
public enum JackServerRegistry {
    public static let path = "/dev/shm/jack-shm-registry"

    /// JACK2's `jack_shm_header_t`: magic, protocol, type, size, header and entry lengths
    /// (24 bytes), then 8 `jack_shm_server_t` entries of a pid and a 257-byte name, padded to 264.
    private static let entriesOffset = 24
    private static let entryLength = 264
    private static let maximumServers = 8
    private static let magic: UInt32 = 0x4a41_434b  // "JACK"

    /// The server names (as `jackd -n` takes them) of listed entries whose process is gone.
    public static func deadEntries() -> [String] {
        guard let data = FileManager.default.contents(atPath: path),
              data.count >= entriesOffset + maximumServers * entryLength,
              data.prefix(4).withUnsafeBytes({ $0.loadUnaligned(as: UInt32.self) }) == magic else { return [] }
        return (0..<maximumServers).compactMap { i in
            let entry = data.dropFirst(entriesOffset + i * entryLength).prefix(entryLength)
            let pid = entry.prefix(4).withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
            let name = String(decoding: entry.dropFirst(4).prefix { $0 != 0 }, as: UTF8.self)
            // Listed as "jack-UID:NAME:" (JACK's shm prefix); a pid of 0 is a free entry.
            let parts = name.split(separator: ":", omittingEmptySubsequences: false)
            guard pid > 0, kill(pid, 0) != 0, errno == ESRCH, parts.count == 3, parts[0].hasPrefix("jack-"),
                  !parts[1].isEmpty else { return nil }
            return String(parts[1])
        }
    }

    /// Frees every dead entry: a server started under the dead one's name takes its entry
    /// over, and stopped cleanly it leaves the entry free.
    public static func reclaimDeadEntries() {
        for name in deadEntries() { reclaim(name) }
    }

    /// Starts a port-less `jackd -n name` and stops it (SIGTERM), which frees `name`'s entry.
    public static func reclaim(_ name: String) {
        guard let again = try? Run.start("/usr/bin/jackd", ["-n", name, "-d", "dummy", "-C", "0", "-P", "0"], server: nil) else { return }
        _ = waitUntil(timeout: 30, interval: 0.05) {
            !again.isRunning || (try? Run.tool("/usr/bin/jack_lsp", [], server: name, timeout: 5).status) == 0
        }
        again.signal(SIGTERM)
        _ = again.finish(timeout: 5)
    }
}
