import FoundationEssentials
import Glibc

/// How a recording's files are named after the path given (`--record take.wav`), numbers of
/// three digits or more so that names sort in recording order:
/// - `.single`: `take.wav`;
/// - `.pieces`: `take-001.wav`, … (a run that may be cut goes on in its next piece);
/// - `.takes`: `take-001.wav`, … one file per armed take;
/// - `.takePieces`: `take-003-001.wav`, … take 3 in pieces.
///
/// A numbered run numbers on after the highest existing number (`firstFreeNumber`), so a
/// recorder restarted with the same arguments never overwrites nor refuses an earlier file.
public struct FileNaming: Sendable, Equatable {
    /// The kinds of names (see the type's doc).
    public enum Scheme: Sendable, Equatable {
        case single, pieces, takes, takePieces
    }

    /// The path as given.
    public let base: String
    public let scheme: Scheme

    public init(base: String, scheme: Scheme) {
        self.base = base
        self.scheme = scheme
    }

    /// The scheme for a run that is armed or not, and whose files may be cut or not.
    public init(base: String, armed: Bool, cut: Bool) {
        self.init(base: base, scheme: armed ? (cut ? .takePieces : .takes) : (cut ? .pieces : .single))
    }

    /// Whether each file carries a number (every scheme but `.single`).
    public var isNumbered: Bool { scheme != .single }

    /// The path of piece `piece` (from 1) of take `take` (from 1; ignored unless armed).
    public func path(take: Int, piece: Int) -> String {
        let (stem, ext) = FileNames.stemAndExtension(base)
        return stem + suffix(take: take, piece: piece) + ext
    }

    /// What the scheme adds to the stem: `""`, `-002`, `-003`, `-003-002`.
    public func suffix(take: Int, piece: Int) -> String {
        switch scheme {
        case .single: ""
        case .pieces: "-" + piece.zeroPadded(3)
        case .takes: "-" + take.zeroPadded(3)
        case .takePieces: "-" + take.zeroPadded(3) + "-" + piece.zeroPadded(3)
        }
    }

    /// `other` (another output's path, a picture's) with the same suffix as the file of
    /// `take` and `piece`: `--plot take.png` beside `take-003-002.wav` is `take-003-002.png`.
    public func companion(_ other: String, take: Int, piece: Int) -> String {
        let (stem, ext) = FileNames.stemAndExtension(other)
        return stem + suffix(take: take, piece: piece) + ext
    }

    /// The existing files this scheme could have named, sorted: `stem-NNN.ext` (or
    /// `stem-NNN-NNN.ext` for `.takePieces`), whatever the numbers; for `.single`, the path
    /// itself if it exists.
    public func existingFiles() -> [String] {
        existing().map(\.path)
    }

    /// The first number after every existing file's: the next piece for `.pieces`, the
    /// next take for `.takes` and `.takePieces`; 1 when none exists.
    public func firstFreeNumber() -> Int {
        (existing().map(\.number).max() ?? 0) + 1
    }

    /// The numbers the next run's first file would take: after every existing file's.
    public func firstNumbers() -> (take: Int, piece: Int) {
        switch scheme {
        case .single: (0, 1)
        case .pieces: (0, firstFreeNumber())
        case .takes, .takePieces: (firstFreeNumber(), 1)
        }
    }

    /// Existing names of this scheme with their (first) number.
    private func existing() -> [(path: String, number: Int)] {
        let (stem, ext) = FileNames.stemAndExtension(base)
        if scheme == .single {
            var info = stat()
            return lstat(base, &info) == 0 ? [(base, 0)] : []
        }
        let directory = FileNames.directory(stem)
        let prefix = FileNames.lastComponent(stem) + "-"
        let numbers = scheme == .takePieces ? 2 : 1
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        var found: [(String, Int)] = []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(ext) && name.count > prefix.count + ext.count {
            let fields = name.dropFirst(prefix.count).dropLast(ext.count).split(separator: "-", omittingEmptySubsequences: false)
            guard fields.count == numbers,
                  fields.allSatisfy({ $0.count >= 3 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                  let first = Int(fields[0]) else { continue }
            found.append((directory.isEmpty ? name : directory.hasSuffix("/") ? directory + name : directory + "/" + name, first))
        }
        return found.sorted { $0.0 < $1.0 }
    }
}
