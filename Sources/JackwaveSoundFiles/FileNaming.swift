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

    /// A take's name made by a pattern (`--name-pattern '%S_%T.wav'`), in the folder of
    /// the path given: the scheme's piece numbers follow it (`12A_T003-002.wav`), and the take
    /// numbers count from the first take given, each a name of its own.
    public struct TakeNames: Sendable, Equatable {
        /// A pattern `NamePattern.parse` has checked, which uses only `NamePattern.takeSpecifiers`.
        public let pattern: String
        public let production: ProductionInfo

        public init(pattern: String, production: ProductionInfo) {
            self.pattern = pattern
            self.production = production
        }

        /// Take `take`'s file name: `%S_%T.wav` with scene 12A, take 3 is `12A_T003.wav`. A
        /// field not given is left empty (the run refuses a pattern that names one it was not
        /// given).
        public func name(take: Int) -> String {
            var out = ""
            var characters = pattern.makeIterator()
            while let c = characters.next() {
                guard c == "%", let s = characters.next() else { out.append(c); continue }
                switch s {
                case "S": out += production.scene ?? ""
                case "T": out += "T" + take.zeroPadded(3)
                case "P": out += production.project ?? ""
                case "R": out += production.tape ?? ""
                default: out.append("%")
                }
            }
            return out
        }
    }

    /// The path as given.
    public let base: String
    public let scheme: Scheme
    public let takeNames: TakeNames?

    public init(base: String, scheme: Scheme, takeNames: TakeNames? = nil) {
        self.base = base
        self.scheme = scheme
        self.takeNames = takeNames
    }

    /// The scheme for a run that is armed or not, and whose files may be cut or not.
    public init(base: String, armed: Bool, cut: Bool, takeNames: TakeNames? = nil) {
        self.init(base: base, scheme: armed ? (cut ? .takePieces : .takes) : (cut ? .pieces : .single), takeNames: takeNames)
    }

    /// The take a run that is not armed records: the first given, else 1.
    public var unarmedTake: Int { takeNames?.production.firstTake ?? 1 }

    /// The stem and extension of take `take`'s names: the path given's, or the pattern's
    /// name for it in the path's folder.
    private func stemAndExtension(take: Int) -> (stem: String, ext: String) {
        guard let takeNames else { return FileNames.stemAndExtension(base) }
        let name = takeNames.name(take: scheme == .takes || scheme == .takePieces ? take : unarmedTake)
        let folder = FileNames.directory(base)
        let (stem, ext) = FileNames.stemAndExtension(name)
        return (folder.isEmpty ? stem : folder.hasSuffix("/") ? folder + stem : folder + "/" + stem, ext)
    }

    /// Whether each file carries a number (every scheme but `.single`).
    public var isNumbered: Bool { scheme != .single }

    /// The path of piece `piece` (from 1) of take `take` (from 1; ignored unless armed).
    public func path(take: Int, piece: Int) -> String {
        let (stem, ext) = stemAndExtension(take: take)
        return stem + suffix(take: take, piece: piece) + ext
    }

    /// What the scheme adds to the stem: `""`, `-002`, `-003`, `-003-002`; with take names,
    /// which name the take themselves, only the piece.
    public func suffix(take: Int, piece: Int) -> String {
        if takeNames != nil {
            return scheme == .pieces || scheme == .takePieces ? "-" + piece.zeroPadded(3) : ""
        }
        switch scheme {
        case .single: return ""
        case .pieces: return "-" + piece.zeroPadded(3)
        case .takes: return "-" + take.zeroPadded(3)
        case .takePieces: return "-" + take.zeroPadded(3) + "-" + piece.zeroPadded(3)
        }
    }

    /// `other` (another output's path, a picture's) with the same suffix as the file of
    /// `take` and `piece`: `--plot take.png` beside `take-003-002.wav` is `take-003-002.png`.
    /// With take names, the take's name in `other`'s folder: `12A_T003.png`.
    public func companion(_ other: String, take: Int, piece: Int) -> String {
        let (stem, ext) = FileNames.stemAndExtension(other)
        if takeNames != nil {
            let name = FileNames.lastComponent(stemAndExtension(take: take).stem)
            let folder = FileNames.directory(other)
            return (folder.isEmpty ? "" : folder.hasSuffix("/") ? folder : folder + "/") + name + suffix(take: take, piece: piece) + ext
        }
        return stem + suffix(take: take, piece: piece) + ext
    }

    /// The existing files this scheme could have named, sorted: `stem-NNN.ext` (or
    /// `stem-NNN-NNN.ext` for `.takePieces`), whatever the numbers; for `.single`, the path
    /// itself if it exists.
    public func existingFiles() -> [String] {
        existing().numbered.map(\.path)
    }

    /// The first number after every existing file's: the next piece for `.pieces`, the
    /// next take for `.takes` and `.takePieces`; 1 when none exists. Names whose number is
    /// beyond `maximumNumber` are passed over (`passedOver`), never trapped on.
    public func firstFreeNumber() -> Int {
        if let takeNames, scheme == .takes || scheme == .takePieces {
            // Take names: from the first take given, the first whose name nothing holds.
            let first = takeNames.production.firstTake ?? 1
            var info = stat()
            var take = first
            while take < Self.maximumNumber && take - first < Self.maximumTakeSkips && lstat(path(take: take, piece: 1), &info) == 0 {
                take += 1
            }
            return take
        }
        return (existing().numbered.map(\.number).max() ?? 0) + 1
    }

    /// Take names passed over, at most, looking for a free one.
    static let maximumTakeSkips = 1000

    /// The numbers the next run's first file would take: after every existing file's.
    public func firstNumbers() -> (take: Int, piece: Int) {
        switch scheme {
        case .single: (0, 1)
        case .pieces: (0, firstFreeNumber())
        case .takes, .takePieces: (firstFreeNumber(), 1)
        }
    }

    /// The highest number a name may carry and still be numbered after: 999,999,999 (nine
    /// digits). A run numbers from 1 and adds one per file or take, so at one piece a second
    /// it would take 31 years to get there; a name beyond it was not written by jackwave (it
    /// is planted, or another program's), and numbering after it would reach numbers that
    /// overflow. The next number after it, 1,000,000,000, still fits any integer type.
    public static let maximumNumber = 999_999_999

    /// The names in the folder that look like this scheme's but carry a number beyond
    /// `maximumNumber`, sorted: a run passes over them (and says so), numbering after the
    /// highest usable one.
    public func passedOver() -> [String] {
        existing().passedOver
    }

    /// Existing names of this scheme with their (first) number, and those passed over.
    private func existing() -> (numbered: [(path: String, number: Int)], passedOver: [String]) {
        let (stem, ext) = stemAndExtension(take: unarmedTake)
        if scheme == .single {
            var info = stat()
            return (lstat(base, &info) == 0 ? [(base, 0)] : [], [])
        }
        let directory = FileNames.directory(stem)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        let found = Self.numbers(in: names, prefix: FileNames.lastComponent(stem) + "-", ext: ext, fields: scheme == .takePieces ? 2 : 1)
        func path(_ name: String) -> String { directory.isEmpty ? name : directory.hasSuffix("/") ? directory + name : directory + "/" + name }
        return (found.numbered.map { (path($0.name), $0.number) }.sorted { $0.0 < $1.0 }, found.passedOver.map(path).sorted())
    }

    /// Reads the numbers of `names` (a folder's, as found) that have the shape `prefix` +
    /// `fields` numbers of three digits or more joined by `-` + `ext`: each name's first
    /// number, or, beyond `maximumNumber`, the name passed over. Names of another shape are
    /// ignored. Never traps, whatever the names (a fuzz target feeds it).
    public static func numbers(in names: [String], prefix: String, ext: String, fields: Int) -> (numbered: [(name: String, number: Int)], passedOver: [String]) {
        var numbered: [(name: String, number: Int)] = []
        var passedOver: [String] = []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(ext) && name.count > prefix.count + ext.count {
            let parts = name.dropFirst(prefix.count).dropLast(ext.count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == fields, parts.allSatisfy({ $0.count >= 3 && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { continue }
            // Checked, not trusted: `Int` refuses a number too long for it (nil), and every
            // field must be usable, so that a piece number never overflows either.
            let values = parts.map { Int($0).flatMap { $0 <= maximumNumber ? $0 : nil } }
            if let first = values[0], values.allSatisfy({ $0 != nil }) {
                numbered.append((name, first))
            } else {
                passedOver.append(name)
            }
        }
        return (numbered, passedOver)
    }
}
