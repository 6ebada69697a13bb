import Glibc
import JackwaveRunSupport

/// Resolves `--port`/`--to` patterns (full names or shell globs) against the ports a
/// server has, in the order the patterns were given.
public enum PortPatterns {
    /// Every port matching each pattern, pattern by pattern, without repeats.
    /// A pattern that matches nothing is a usage error that lists what exists.
    public static func resolve(_ patterns: [String], among ports: [String], what: String) throws(UsageError) -> [String] {
        var chosen: [String] = []
        for pattern in patterns {
            let matches = ports.filter { fnmatch(pattern, $0, 0) == 0 }
            guard !matches.isEmpty else {
                let list = ports.isEmpty ? "none" : ports.joined(separator: ", ")
                throw UsageError("no \(what) port matches '\(pattern)'; \(what) ports: \(list)")
            }
            for m in matches where !chosen.contains(m) { chosen.append(m) }
        }
        return chosen
    }
}
