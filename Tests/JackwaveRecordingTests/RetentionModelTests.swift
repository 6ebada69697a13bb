import Foundation
import Glibc
import JackwaveDSP
import JackwaveRecording
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// Retention as a state machine: random sequences of what happens to a logger's folder over
/// months (pieces closing, splits, markers rewriting a piece, restarts with a smaller quota,
/// strangers' files made, renamed into place or hard-linked, a folder swapped for a link,
/// the wall clock stepping both ways), driven through `Retention` itself, as the writer and
/// the finisher drive it. After every step two invariants hold:
/// - no file that jackwave did not write is deleted, or changed;
/// - every file it wrote that is still where it wrote it is listed, unless it deleted it.
/// A failure names the seed; `RetentionModel(seed:).run()` replays it.
@Suite("Retention as a state machine")
struct RetentionModelTests {
    static let sequences = 240
    static let steps = 40
    /// The sequences in four batches, so that the unit tests' parallel run spreads them.
    static let batches = 4

    @Test("random steps never delete a file jackwave did not write, nor lose one it wrote from its list",
          arguments: 0..<batches)
    func randomSequences(batch: Int) throws {
        for seed in stride(from: batch, to: Self.sequences, by: Self.batches) {
            var model = try RetentionModel(seed: UInt64(seed))
            try model.run(steps: Self.steps)
        }
    }
}

/// One random sequence and what the folder should hold after each step.
struct RetentionModel {
    let seed: UInt64
    var random: SplitMix64
    let root: String
    /// The current run's retention (nil between runs).
    var retention: Retention?
    var limits: RetentionLimits
    /// The model's clocks: the wall clock (it steps) and the monotonic one (it only grows).
    var now = 1_750_000_000
    var monotonic = 1000.0
    /// The piece being written: its file and what it holds.
    var open: (file: ExclusiveFile, bytes: [UInt8])?
    /// jackwave's files still where it wrote them, and what each holds.
    var own: [String: [UInt8]] = [:]
    /// Strangers' files (and links), and what each holds: never to be deleted or changed.
    var foreign: [String: [UInt8]] = [:]
    var counter = 0
    /// What happened, for the failure's message.
    var log: [String] = []

    init(seed: UInt64) throws {
        self.seed = seed
        random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 1)
        root = NSTemporaryDirectory() + "jackwave-retention-model-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        limits = RetentionLimits(seconds: 10 * 86400)
        limits = randomLimits()
    }

    mutating func run(steps: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try restart()
        for _ in 0..<steps {
            switch Int.random(in: 0..<13, using: &random) {
            case 0, 1, 2: try closePiece(openNext: true)  // a split
            case 3: try closePiece(openNext: Bool.random(using: &random))
            case 4: try marker()
            case 5: try restart()
            case 6: try foreignFile()
            case 7: try renameIntoPlace()
            case 8: try hardLink()
            case 9: try swapFolder()
            case 10: stepClock()
            case 11, 12: passTime()
            default: break
            }
            try check()
        }
    }

    // MARK: Steps

    /// Limits as a logger's might be: an age, a quota in bytes, or both.
    mutating func randomLimits() -> RetentionLimits {
        let age: Double? = [nil, 86400, 10 * 86400][Int.random(in: 0..<3, using: &random)]
        let bytes: Int64? = age == nil || Bool.random(using: &random) ? Int64.random(in: 4_000...40_000, using: &random) : nil
        return RetentionLimits(seconds: age, bytes: bytes)
    }

    /// The writer closes its piece (then the finisher lets it go and prunes); a split opens
    /// the next one.
    mutating func closePiece(openNext: Bool) throws {
        if let piece = open {
            var times = [timespec(tv_sec: now, tv_nsec: 0), timespec(tv_sec: now, tv_nsec: 0)]
            #expect(futimens(piece.file.descriptor, &times) == 0)
            close(piece.file.descriptor)
            open = nil
            log.append("close \(piece.file.relativePath)")
            retention?.release(piece.file.relativePath, at: monotonic)
            try prune()
        }
        if openNext { try openPiece() }
    }

    /// A new piece, in the root or in the folder `d`, as a name pattern would place it; in
    /// the root if `d` is blocked (jackwave's fallback name does the same).
    mutating func openPiece() throws {
        counter += 1
        let inFolder = Bool.random(using: &random)
        let name = String(printf: "m-%03d.wav", counter)
        let file: ExclusiveFile
        do { file = try ExclusiveFile.create(under: root, relative: inFolder ? "d/" + name : name) } catch {
            file = try ExclusiveFile.create(under: root, relative: name)
        }
        let bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: counter), count: Int.random(in: 500...4000, using: &random))
        guard let retention else {
            close(file.descriptor)
            Issue.record("seed \(seed): a piece opened without a retention")
            return
        }
        try retention.record(file, created: WallClockTime(seconds: now, nanoseconds: 0), monotonic: monotonic)
        #expect(write(file.descriptor, bytes, bytes.count) == bytes.count)
        open = (file, bytes)
        own[file.relativePath] = bytes
        log.append("open \(file.relativePath)")
    }

    /// A marker's cue point rewrites a closed piece into a new file renamed over it, as
    /// `SoundFile.addCues` does, and tells retention.
    mutating func marker() throws {
        let closed = own.keys.filter { $0 != open?.file.relativePath }.sorted()
        guard !closed.isEmpty, let retention else { return }
        let path = closed[Int.random(in: 0..<closed.count, using: &random)]
        let full = root + "/" + path
        guard let bytes = own[path] else { return }
        let temporary = try CreatedFile.temporary(beside: full, mode: 0o644)
        FileIdentity.copyTag(from: full, to: temporary.fd)
        let rewritten = bytes + [0xC0]  // the cue chunk
        #expect(write(temporary.fd, rewritten, rewritten.count) == rewritten.count)
        let identity = FileIdentity(descriptor: temporary.fd)
        close(temporary.fd)
        try CreatedFile.moveIntoPlace(temporary.path, at: full)
        try retention.replaced(path, by: identity)
        own[path] = rewritten
        log.append("marker \(path)")
    }

    /// The service restarts, maybe with new limits (a quota shrunk, say): the piece being
    /// written is finished, the retention let go, a new one made, and it prunes at start.
    mutating func restart() throws {
        if open != nil { try closePiece(openNext: false) }
        retention = nil
        if Bool.random(using: &random) { limits = randomLimits() }
        retention = try Self.retention(root: root, limits: limits, monotonic: monotonic)
        log.append("restart \(limits)")
        try prune()
        try openPiece()
    }

    /// A stranger's file, named as jackwave names its pieces or not, in the root or in `d`.
    mutating func foreignFile() throws {
        let names = [String(printf: "m-%03d.wav", counter + 1), "notes.txt", "d/" + String(printf: "m-%03d.wav", counter + 1),
                     "m-\(Int.random(in: 0...999, using: &random)).wav"]
        let path = names[Int.random(in: 0..<names.count, using: &random)]
        guard own[path] == nil, foreign[path] == nil, make(path, Array("stranger \(path) \(counter)".utf8)) else { return }
        log.append("foreign \(path)")
    }

    /// A stranger renames a file of theirs over one of jackwave's pieces: the piece is gone
    /// (not by jackwave), the stranger's file is in its place.
    mutating func renameIntoPlace() throws {
        let closed = own.keys.filter { $0 != open?.file.relativePath }.sorted()
        guard !closed.isEmpty else { return }
        let path = closed[Int.random(in: 0..<closed.count, using: &random)]
        let staging = "staging-\(counter)-\(Int.random(in: 0...99999, using: &random))"
        let bytes = Array("stranger over \(path)".utf8)
        guard make(staging, bytes), rename(root + "/" + staging, root + "/" + path) == 0 else { return }
        foreign[staging] = nil
        own[path] = nil
        foreign[path] = bytes
        log.append("rename into \(path)")
    }

    /// A hard link: a stranger's file linked to the next piece's name, or a piece of jackwave's
    /// linked to a stranger's name (a backup by `cp -l`; the link is theirs).
    mutating func hardLink() throws {
        if Bool.random(using: &random), let (path, bytes) = foreign.sorted(by: { $0.key < $1.key }).first {
            let name = String(printf: "m-%03d.wav", counter + 1)
            guard foreign[name] == nil, own[name] == nil, link(root + "/" + path, root + "/" + name) == 0 else { return }
            foreign[name] = bytes
            log.append("link \(path) to \(name)")
        } else if let (path, bytes) = own.sorted(by: { $0.key < $1.key }).first(where: { $0.key != open?.file.relativePath }) {
            let name = "backup-\(counter).wav"
            guard foreign[name] == nil, link(root + "/" + path, root + "/" + name) == 0 else { return }
            foreign[name] = bytes
            log.append("link \(path) to \(name)")
        }
    }

    /// The folder `d` is moved aside and a link to a stranger's folder, holding files named
    /// as jackwave's, put in its place; or, if already swapped, put back.
    mutating func swapFolder() throws {
        let aside = "d.aside", theirs = "theirs"
        var info = stat()
        if lstat(root + "/d", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK {
            // Back as it was: the folder's files are where jackwave wrote them again.
            guard unlink(root + "/d") == 0, rename(root + "/" + aside, root + "/d") == 0 else { return }
            move(from: aside, to: "d")
            log.append("folder back")
            return
        }
        guard lstat(root + "/d", &info) == 0, info.st_mode & S_IFMT == S_IFDIR, open?.file.relativePath.hasPrefix("d/") != true,
              rename(root + "/d", root + "/" + aside) == 0 else { return }
        move(from: "d", to: aside)
        _ = mkdir(root + "/" + theirs, 0o755)
        for name in ["m-001.wav", String(printf: "m-%03d.wav", counter)] where foreign[theirs + "/" + name] == nil {
            _ = make(theirs + "/" + name, Array("stranger's \(name)".utf8))
        }
        #expect(symlink(theirs, root + "/d") == 0)
        log.append("folder swapped for a link")
    }

    /// The wall clock steps (an NTP step, a bad RTC): up to two months either way.
    mutating func stepClock() {
        let step = Int.random(in: -60 * 86400...60 * 86400, using: &random)
        now += step
        log.append("clock step \(step / 3600) h")
    }

    /// Time passes on both clocks: a few hours to a few days.
    mutating func passTime() {
        let seconds = Int.random(in: 3600...5 * 86400, using: &random)
        now += seconds
        monotonic += Double(seconds)
        log.append("\(seconds / 3600) h pass")
    }

    // MARK: Helpers

    mutating func prune() throws {
        guard let retention else { return }
        let pass = retention.prune(now: WallClockTime(seconds: now, nanoseconds: 0), monotonic: monotonic)
        #expect(pass.unsaved == nil, "seed \(seed): \(pass.unsaved?.message ?? "")")
        for deletion in pass.deletions {
            #expect(own[deletion.path] != nil, "seed \(seed): deleted \(deletion.path), not jackwave's:\n\(trail)")
            own[deletion.path] = nil
            log.append("deleted \(deletion.path)")
        }
    }

    /// A new retention on the folder, as a restarted jackwave makes one. The last one's lock
    /// is let go when it is dropped, but a process another test spawns at that moment holds a
    /// copy of the descriptor until it execs (close-on-exec): wait for the lock, with a bound.
    static func retention(root: String, limits: RetentionLimits, monotonic: Double) throws -> Retention {
        let deadline = Date().addingTimeInterval(10)
        var attempt: Result<Retention, RetentionError>
        repeat {
            attempt = Result { () throws(RetentionError) in
                try Retention(root: root, name: "m", limits: limits, monotonic: monotonic) { _ in }
            }
            guard case let .failure(error) = attempt, error.message.hasSuffix("(its lock is held)") else { break }
            usleep(10_000)
        } while Date() < deadline
        return try attempt.get()
    }

    /// A stranger's file at `path` (relative), with `bytes`, last written now.
    mutating func make(_ path: String, _ bytes: [UInt8]) -> Bool {
        let full = root + "/" + path
        // Only in a real folder: one behind the link would move with the link.
        if let slash = path.firstIndex(of: "/") {
            var info = stat()
            guard lstat(root + "/" + path[..<slash], &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return false }
        }
        let fd = Glibc.open(full, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard write(fd, bytes, bytes.count) == bytes.count else { return false }
        var times = [timespec(tv_sec: now, tv_nsec: 0), timespec(tv_sec: now, tv_nsec: 0)]
        _ = futimens(fd, &times)
        foreign[path] = bytes
        return true
    }

    /// The model's record of the files under `from/` follows them to `to/`.
    mutating func move(from: String, to: String) {
        for (path, bytes) in own where path.hasPrefix(from + "/") {
            own[path] = nil
            // Moved aside, they are not where jackwave wrote them, until they come back.
            if to == "d" { own["d/" + path.dropFirst(from.count + 1)] = bytes } else { aside[String(path.dropFirst(from.count + 1))] = bytes }
        }
        if to == "d" {
            for (name, bytes) in aside { own["d/" + name] = bytes }
            aside = [:]
        }
        for (path, bytes) in foreign where path.hasPrefix(from + "/") {
            foreign[path] = nil
            foreign[to + "/" + path.dropFirst(from.count + 1)] = bytes
        }
    }
    /// jackwave's files in the folder moved aside, by name.
    var aside: [String: [UInt8]] = [:]

    var trail: String { log.suffix(40).joined(separator: "\n") }

    /// The two invariants.
    func check() throws {
        for (path, bytes) in foreign {
            let held = FileManager.default.contents(atPath: root + "/" + path).map { [UInt8]($0) }
            #expect(held == bytes, "seed \(seed): the stranger's \(path) was \(held == nil ? "deleted" : "changed"):\n\(trail)")
        }
        guard let retention else { return }
        let listed = Set(retention.listedFiles)
        for path in own.keys.sorted() {
            #expect(listed.contains(path), "seed \(seed): jackwave's \(path) is no longer listed:\n\(trail)")
            let held = FileManager.default.contents(atPath: root + "/" + path).map { [UInt8]($0) }
            #expect(held == own[path], "seed \(seed): jackwave's \(path) is not what it wrote:\n\(trail)")
        }
    }
}
