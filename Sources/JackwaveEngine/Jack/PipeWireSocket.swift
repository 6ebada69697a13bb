import FoundationEssentials
import Glibc

/// The PipeWire server's socket, as PipeWire's libjack finds it: `$PIPEWIRE_REMOTE`
/// (default `pipewire-0`) in `$PIPEWIRE_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR`.
///
/// PipeWire 0.3's libjack does not call a client's shutdown callback when the server dies:
/// the cycles just stop. Whether anything still listens on this socket tells a server
/// that died from one that only paused.
package enum PipeWireSocket {
    /// The socket's path, if the environment names one.
    package static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let remote = environment["PIPEWIRE_REMOTE"].flatMap { $0.isEmpty ? nil : $0 } ?? "pipewire-0"
        if remote.hasPrefix("/") { return remote }
        guard let dir = environment["PIPEWIRE_RUNTIME_DIR"] ?? environment["XDG_RUNTIME_DIR"] else { return nil }
        return dir + "/" + remote
    }

    /// `socket` and `connect` on the path: false when nothing listens there (the server
    /// died: `ECONNREFUSED`, or the socket is gone); true when something accepts, or when
    /// the answer is unknown (no path, or another error), so that only a clear no counts.
    static func isListening(at path: String?) -> Bool {
        guard let path else { return true }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { return true }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result == 0 { return true }
        return !(errno == ECONNREFUSED || errno == ENOENT)
    }
}
