import Foundation

/// An `--events` stream read back: one JSON object per line.
enum EventStream {
    /// The lines of the stream at `path`, each parsed as one JSON object.
    static func read(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw TestFailure("not a JSON object: \(line)")
            }
            return object
        }
    }
}
