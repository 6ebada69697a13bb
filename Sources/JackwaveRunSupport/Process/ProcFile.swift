import Glibc

/// A file of `/proc` read whole: what the kernel reports of this process (`stat`, `maps`)
/// or of the machine (`net/udp`). Its size reads as 0, so it is read until the end, up to a
/// bound.
package enum ProcFile {
    /// The bytes of `path`, at most `limit` of them; nil if it cannot be opened.
    package static func read(_ path: String, limit: Int = 4 << 20) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[..<n]
        }
        return bytes
    }
}
