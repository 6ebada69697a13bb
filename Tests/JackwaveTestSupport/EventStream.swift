import Foundation

/// An `--events` stream read back: one JSON object per line.
public enum EventStream {
    /// Events a loaded machine or the server may add to any run at any time: xruns, cycles
    /// PipeWire skipped, and the connections the server makes and breaks. A test of a run's course leaves them out;
    /// a test of one of them looks for it by name.
    public static let incidental: Set<String> = ["xrun", "skipped", "connected", "disconnected"]

    /// The lines of the stream at `path`, each parsed as one JSON object.
    public static func read(_ path: String) throws -> [[String: Any]] {
        try parse(String(contentsOfFile: path, encoding: .utf8))
    }

    /// The lines of `text`, each parsed as one JSON object.
    public static func parse(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw TestFailure("not a JSON object: \(line)")
            }
            return object
        }
    }

    /// The `"event"` of each line, in order, without the `incidental` ones.
    public static func course(_ lines: [[String: Any]]) -> [String] {
        lines.compactMap { $0["event"] as? String }.filter { !incidental.contains($0) }
    }
}
