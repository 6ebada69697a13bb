import Foundation
import Glibc
import JackwaveRecording
import JackwaveSoundFiles
import Synchronization
import Testing

/// `--keep` and `--keep-space` with real files in a temporary folder: only jackwave's own
/// files go, oldest first; a foreign or replaced file, the file being written and one waiting
/// for its hook stay; the manifest is made and kept safely.
@Suite("Retention")
struct RetentionTests {
    let dir: String = {
        let path = NSTemporaryDirectory() + "jackwave-retention-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// A file made as jackwave makes one, `bytes` long, last written `ageDays` ago by both
    /// clocks (the wall clock's `now`, and the monotonic clock's 0, which `prune` passes);
    /// listed.
    func make(_ retention: Retention, _ relative: String, bytes: Int, ageDays: Double, now: Int) throws -> ExclusiveFile {
        let file = try ExclusiveFile.create(under: dir, relative: relative)
        try retention.record(file, created: WallClockTime(seconds: now - Int(ageDays * 86400), nanoseconds: 0),
                             monotonic: -ageDays * 86400)
        let data = [UInt8](repeating: 7, count: bytes)
        #expect(write(file.descriptor, data, data.count) == data.count)
        close(file.descriptor)
        retention.release(file.relativePath, at: -ageDays * 86400)
        age(file.path, days: ageDays, now: now)
        return file
    }

    /// `retention.prune` at the wall clock's `now` and the monotonic clock's `monotonic`.
    func prune(_ retention: Retention, now: Int = Self.now, monotonic: Double = 0) throws -> [RetentionDeletion] {
        let pass = retention.prune(now: WallClockTime(seconds: now, nanoseconds: 0), monotonic: monotonic)
        if let unsaved = pass.unsaved { throw unsaved }
        return pass.deletions
    }

    func age(_ path: String, days: Double, now: Int) {
        let t = time_t(now - Int(days * 86400))
        var times = [timespec(tv_sec: t, tv_nsec: 0), timespec(tv_sec: t, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0)
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: dir + "/" + relative) }

    static let now = 1_750_000_000

    @Test("--keep deletes its own files older than the limit, oldest first, and removes the folders it made once empty")
    func byAge() throws {
        let deleted = Mutex<[String]>([])
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 30 * 86400)) { d in deleted.withLock { $0.append(d.path) } }
        _ = try make(r, "2025-01-01/0000.flac", bytes: 100, ageDays: 40, now: Self.now)
        _ = try make(r, "2025-01-01/0100.flac", bytes: 100, ageDays: 39, now: Self.now)
        _ = try make(r, "2025-02-01/0000.flac", bytes: 100, ageDays: 10, now: Self.now)
        let result = try prune(r)
        #expect(result.map(\.path) == ["2025-01-01/0000.flac", "2025-01-01/0100.flac"])
        #expect(deleted.withLock { $0 } == result.map(\.path))
        #expect(!exists("2025-01-01"))
        #expect(exists("2025-02-01/0000.flac"))
        #expect(r.listedFiles == ["2025-02-01/0000.flac"])
        let oldest = try #require(result.first, "nothing deleted")
        if case let .age(seconds) = oldest.reason { #expect(seconds == 40 * 86400) } else { Issue.record("reason \(oldest.reason)") }
    }

    @Test("--keep-space deletes the oldest of its own files until the rest fits; a foreign file, even bigger, is never touched")
    func bySpace() throws {
        try Data(repeating: 1, count: 5000).write(to: URL(fileURLWithPath: dir + "/foreign.flac"))
        age(dir + "/foreign.flac", days: 100, now: Self.now)
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(bytes: 2500)) { _ in }
        for (i, name) in ["a.flac", "b.flac", "c.flac", "d.flac"].enumerated() {
            _ = try make(r, name, bytes: 1000, ageDays: Double(4 - i), now: Self.now)
        }
        let result = try prune(r)
        #expect(result.map(\.path) == ["a.flac", "b.flac"])
        #expect(exists("foreign.flac") && exists("c.flac") && exists("d.flac"))
        #expect(result.allSatisfy { $0.bytes == 1000 })
    }

    @Test("a file put in the place of one of its own (same name, another inode) is not deleted, and leaves the list")
    func replaced() throws {
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 86400)) { _ in }
        let file = try make(r, "old.flac", bytes: 10, ageDays: 5, now: Self.now)
        unlink(file.path)
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: file.path))
        age(file.path, days: 5, now: Self.now)
        #expect(try prune(r).isEmpty)
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == "someone else's")
        #expect(r.listedFiles.isEmpty)
    }

    @Test("a link put in the place of one of its own files is not followed: neither it nor its target goes")
    func linkInPlace() throws {
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 86400)) { _ in }
        let file = try make(r, "old.flac", bytes: 10, ageDays: 5, now: Self.now)
        let target = dir + "/precious.flac"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
        unlink(file.path)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: target)
        #expect(try prune(r).isEmpty)
        #expect(exists("precious.flac"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: file.path)) == target)
    }

    @Test("the file being written and one waiting for its hook are never deleted, whatever their age; released, they go")
    func protectedFiles() throws {
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 86400)) { _ in }
        let writing = try ExclusiveFile.create(under: dir, relative: "writing.flac")
        try r.record(writing, monotonic: -9 * 86400)  // protected until released
        close(writing.descriptor)
        age(writing.path, days: 9, now: Self.now)
        let hooked = try make(r, "hooked.flac", bytes: 10, ageDays: 9, now: Self.now)
        r.protect(hooked.relativePath)
        #expect(try prune(r).isEmpty)
        #expect(exists("writing.flac") && exists("hooked.flac"))
        r.release("writing.flac", at: -9 * 86400)
        r.release("hooked.flac", at: -9 * 86400)
        #expect(try prune(r).map(\.path).sorted() == ["hooked.flac", "writing.flac"])
    }

    /// Files of an earlier run (`Retention` ended), each aged by the wall clock.
    func earlierRun(_ ages: [(String, Double)], bytes: Int = 10) throws {
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 86400)) { _ in }
        for (name, days) in ages { _ = try make(r, name, bytes: bytes, ageDays: days, now: Self.now) }
    }

    @Test("when the wall clock says every earlier file is past --keep, none goes by age, and clockHold says how old the newest looked")
    func clockAloneDeletesNothing() throws {
        try earlierRun([("a.flac", 0.5), ("b.flac", 0.2)])
        // The clock 40 days ahead: every earlier file looks 40 days old.
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 30 * 86400), monotonic: 0) { _ in }
        let ahead = Self.now + 40 * 86400
        #expect(try prune(r, now: ahead, monotonic: 60).isEmpty)
        #expect(r.listedFiles == ["a.flac", "b.flac"] && exists("a.flac") && exists("b.flac"))
        let hold = try #require(r.clockHold, "no hold said")
        #expect(hold.files == 2 && abs(hold.newestAge - (40 + 0.2) * 86400) < 1 && hold.seen == 60, "\(hold)")
        // This run's own pieces do not change that: they are young by the monotonic clock.
        _ = try make(r, "c.flac", bytes: 10, ageDays: 0, now: ahead)
        #expect(try prune(r, now: ahead, monotonic: 120).isEmpty && r.clockHold != nil)
    }

    @Test("a hold outlives the run: restarted with the clock still ahead, no held file goes, though the newer files look right by it")
    func holdOutlivesTheRun() throws {
        try earlierRun([("a.flac", 0.5), ("b.flac", 0.2)])
        let ahead = Self.now + 40 * 86400
        do {
            let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 30 * 86400), monotonic: 0) { _ in }
            #expect(try prune(r, now: ahead, monotonic: 60).isEmpty && r.clockHold?.files == 2)
            // A piece written at the clock's new time: young by it.
            _ = try make(r, "c.flac", bytes: 10, ageDays: 0, now: ahead)
            #expect(try prune(r, now: ahead, monotonic: 120).isEmpty)
        }
        let manifest = try String(contentsOfFile: dir + "/.jackwave-hall.manifest", encoding: .utf8)
        #expect(manifest.hasPrefix("{\"jackwave_manifest\":3}\n") && manifest.contains("\"held\":120,"), "\(manifest)")
        // The next run: c.flac says the clock is right, yet a and b stay held, and keep counting.
        let again = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 30 * 86400), monotonic: 0) { _ in }
        #expect(try prune(again, now: ahead + 3600, monotonic: 30).isEmpty)
        #expect(again.listedFiles == ["a.flac", "b.flac", "c.flac"] && exists("a.flac") && exists("b.flac"))
        let hold = try #require(again.clockHold, "the hold is gone")
        #expect(hold.files == 2 && abs(hold.newestAge - (40.2 * 86400 + 3600)) < 1 && hold.seen == 150, "\(hold)")
    }

    @Test("held files go once jackwave has run --keep with them held, added up across runs, whatever the wall clock says")
    func holdEndsOnceSeen() throws {
        try earlierRun([("a.flac", 0.5), ("b.flac", 0.2)])
        let ahead = Self.now + 40 * 86400
        do {
            let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 30 * 86400), monotonic: 1000) { _ in }
            #expect(try prune(r, now: ahead, monotonic: 1060).isEmpty)
            #expect(try prune(r, now: ahead, monotonic: 1000 + 20 * 86400).isEmpty)
        }
        // The clock put back meanwhile: the files look young by it; 20 days have been seen.
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 30 * 86400), monotonic: 0) { _ in }
        #expect(try prune(r, now: Self.now, monotonic: 9 * 86400).isEmpty && r.clockHold?.seen == 29 * 86400)
        let deleted = try prune(r, now: Self.now, monotonic: 10 * 86400 + 1)
        #expect(deleted.map(\.path) == ["a.flac", "b.flac"] && deleted.first?.reason == .age(seconds: 30 * 86400 + 1), "\(deleted)")
        #expect(r.clockHold == nil)
        // Nothing held any more: the manifest is one an older jackwave reads again.
        let manifest = try String(contentsOfFile: dir + "/.jackwave-hall.manifest", encoding: .utf8)
        #expect(manifest == "{\"jackwave_manifest\":2}\n", "\(manifest)")
    }

    @Test("a piece the wall clock calls past --keep during its run (a step forward) is held at the next restart")
    func stepDuringRunHoldsThisRunsFiles() throws {
        do {
            let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 30 * 86400), monotonic: 0) { _ in }
            _ = try make(r, "a.flac", bytes: 10, ageDays: 0, now: Self.now)
            // The clock steps 40 days forward; the next piece is written at its new time.
            _ = try make(r, "b.flac", bytes: 10, ageDays: 0, now: Self.now + 40 * 86400)
            #expect(try prune(r, now: Self.now + 40 * 86400, monotonic: 60).isEmpty)
        }
        // Restarted with the clock where it stepped to: b.flac looks young by it, a.flac 40
        // days old. a.flac was written a minute before; it stays.
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 30 * 86400), monotonic: 0) { _ in }
        #expect(try prune(r, now: Self.now + 40 * 86400 + 60, monotonic: 60).isEmpty)
        #expect(exists("a.flac") && exists("b.flac"))
    }

    @Test("while the clock is held, --keep-space still deletes the oldest of the earlier files")
    func clockHoldLeavesTheQuota() throws {
        try earlierRun([("a.flac", 0.5), ("b.flac", 0.2)], bytes: 1000)
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 30 * 86400, bytes: 1500), monotonic: 0) { _ in }
        let deleted = try prune(r, now: Self.now + 40 * 86400, monotonic: 60)
        #expect(deleted.map(\.path) == ["a.flac"] && deleted.first?.reason == .space(total: 2000, quota: 1500), "\(deleted)")
    }

    @Test("once this run has lasted --keep by the monotonic clock, every earlier file goes, whatever the wall clock says")
    func monotonicProvesAge() throws {
        try earlierRun([("a.flac", 0.5), ("b.flac", 0.2)])
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 86400), monotonic: 0) { _ in }
        // The wall clock went back a year meanwhile: the files look as if from the future.
        let deleted = try prune(r, now: Self.now - 365 * 86400, monotonic: 86400 + 1)
        #expect(deleted.map(\.path) == ["a.flac", "b.flac"] && r.clockHold == nil, "\(deleted)")
    }

    @Test("this run's files age by the monotonic clock: a wall-clock step forward deletes none of them")
    func thisRunIgnoresClockSteps() throws {
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 86400), monotonic: -3600) { _ in }
        _ = try make(r, "a.flac", bytes: 10, ageDays: 0, now: Self.now)
        #expect(try prune(r, now: Self.now + 40 * 86400, monotonic: 3600).isEmpty)
        #expect(try prune(r, now: Self.now, monotonic: 86400 + 1).map(\.path) == ["a.flac"])
    }

    @Test("every deletion is returned when the manifest cannot be saved after it (a folder in its place), and the failure with it")
    func deletionsSaidWhenManifestUnsaved() throws {
        try earlierRun([("a.flac", 5), ("b.flac", 3), ("c.flac", 0.5)])
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 86400)) { _ in }
        // A folder where the manifest was: no rename replaces it, even as root.
        let manifest = dir + "/.jackwave-hall.manifest"
        #expect(rename(manifest, dir + "/manifest.aside") == 0 && mkdir(manifest, 0o700) == 0)
        let pass = r.prune(now: WallClockTime(seconds: Self.now, nanoseconds: 0), monotonic: 0)
        #expect(pass.deletions.map(\.path) == ["a.flac", "b.flac"])
        #expect(!exists("a.flac") && !exists("b.flac") && exists("c.flac"))
        let unsaved = try #require(pass.unsaved, "the failed save was not told")
        #expect(unsaved.message.contains(".jackwave-hall.manifest: cannot be written: Is a directory"), "\(unsaved.message)")
        // This run still knows what it deleted and what it lists.
        #expect(r.listedFiles == ["c.flac"])
    }

    @Test("a file it cannot delete (its folder immutable, which holds for root too) stays listed, and the failure says why",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr")))
    func undeletableFileStaysListed() throws {
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 86400)) { _ in }
        _ = try make(r, "d/a.flac", bytes: 10, ageDays: 5, now: Self.now)
        let chattr = Process()
        chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        chattr.arguments = ["+i", dir + "/d"]
        try chattr.run()
        chattr.waitUntilExit()
        try #require(chattr.terminationStatus == 0, "chattr +i is not supported here")
        defer {
            let undo = Process()
            undo.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            undo.arguments = ["-i", dir + "/d"]
            try? undo.run()
            undo.waitUntilExit()
        }
        let pass = r.prune(now: WallClockTime(seconds: Self.now, nanoseconds: 0), monotonic: 0)
        #expect(pass.deletions.isEmpty && pass.unsaved == nil)
        #expect(pass.failures.map(\.path) == ["d/a.flac"] && pass.failures.first?.reason == "Operation not permitted", "\(pass.failures)")
        #expect(exists("d/a.flac") && r.listedFiles == ["d/a.flac"])
    }

    @Test("--keep-space counts only what a deletion frees: a file that another link names neither counts nor goes for the quota")
    func hardLinksFreeNothing() throws {
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(bytes: 2500)) { _ in }
        for (i, name) in ["a.flac", "b.flac", "c.flac", "d.flac"].enumerated() {
            _ = try make(r, name, bytes: 1000, ageDays: Double(4 - i), now: Self.now)
        }
        // A backup by hard link of the oldest: deleting jackwave's name of it would free nothing.
        #expect(link(dir + "/a.flac", dir + "/backup-a.flac") == 0)
        let pass = r.prune(now: WallClockTime(seconds: Self.now, nanoseconds: 0), monotonic: 0)
        // b, c and d take 3000 bytes that deleting can free: b goes, and 2000 fit.
        #expect(pass.deletions.map(\.path) == ["b.flac"] && pass.deletions.first?.reason == .space(total: 3000, quota: 2500),
                "\(pass.deletions)")
        #expect(pass.linked.files == 1 && pass.linked.bytes == 1000)
        #expect(exists("a.flac") && exists("backup-a.flac") && exists("c.flac") && exists("d.flac"))
    }

    @Test("a file that another link names, deleted by age, is said to have freed nothing")
    func linkedFileByAgeFreesNothing() throws {
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 86400)) { _ in }
        _ = try make(r, "a.flac", bytes: 1000, ageDays: 3, now: Self.now)
        _ = try make(r, "b.flac", bytes: 1000, ageDays: 2, now: Self.now)
        #expect(link(dir + "/a.flac", dir + "/backup-a.flac") == 0)
        let deleted = try prune(r)
        #expect(deleted.map(\.path) == ["a.flac", "b.flac"] && deleted.map(\.freed) == [false, true])
        #expect(deleted.first?.line.hasSuffix("last written 3.0 days ago; another link keeps its bytes on the disk)") == true,
                "\(deleted.first?.line ?? "")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/backup-a.flac")).count == 1000)
    }

    @Test("the manifest outlives the run: a new retention on the folder knows the earlier files and deletes them")
    func manifestPersists() throws {
        do {
            let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 86400)) { _ in }
            _ = try make(r, "earlier.flac", bytes: 10, ageDays: 3, now: Self.now)
            _ = try make(r, "recent.flac", bytes: 10, ageDays: 0.5, now: Self.now)
        }
        let manifest = try String(contentsOfFile: dir + "/.jackwave-hall.manifest", encoding: .utf8)
        #expect(manifest.hasPrefix("{\"jackwave_manifest\":2}\n") && manifest.contains("\"path\":\"earlier.flac\""))
        var info = stat()
        #expect(stat(dir + "/.jackwave-hall.manifest", &info) == 0 && info.st_mode & 0o777 == 0o600)
        let again = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 86400)) { _ in }
        #expect(try prune(again).map(\.path) == ["earlier.flac"])
        #expect(again.listedFiles == ["recent.flac"])
        // No temporaries are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [".jackwave-hall.lock", ".jackwave-hall.manifest", "recent.flac"])
    }

    @Test("two jackwaves cannot keep the same manifest; a manifest others may write, or a link in its place, is refused")
    func unsafeManifests() throws {
        do {
            let first = try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 86400)) { _ in }
            #expect(throws: RetentionError.self) { try Retention(root: dir, name: "hall", limits: RetentionLimits()) { _ in } }
            withExtendedLifetime(first) {}
        }
        #expect(throws: Never.self) { _ = try Retention(root: dir, name: "hall", limits: RetentionLimits()) { _ in } }
        chmod(dir + "/.jackwave-hall.manifest", 0o666)
        #expect(throws: RetentionError.self) { try Retention(root: dir, name: "hall", limits: RetentionLimits()) { _ in } }
        try FileManager.default.createSymbolicLink(atPath: dir + "/.jackwave-studio.manifest", withDestinationPath: dir + "/elsewhere")
        #expect(throws: RetentionError.self) { try Retention(root: dir, name: "studio", limits: RetentionLimits()) { _ in } }
        #expect(!FileManager.default.fileExists(atPath: dir + "/elsewhere"))
    }

    @Test("a manifest listing a path outside the folder is not jackwave's: refused, nothing deleted")
    func escapingManifest() throws {
        let victim = dir + "/../victim-\(UUID().uuidString)"
        try Data("x".utf8).write(to: URL(fileURLWithPath: victim))
        let text = "{\"jackwave_manifest\":1}\n{\"created\":0,\"dev\":0,\"ino\":0,\"path\":\"../\(URL(fileURLWithPath: victim).lastPathComponent)\"}\n"
        let fd = open(dir + "/.jackwave-hall.manifest", O_WRONLY | O_CREAT | O_EXCL, 0o600)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        #expect(throws: RetentionError.self) { try Retention(root: dir, name: "hall", limits: RetentionLimits(seconds: 1)) { _ in } }
        #expect(FileManager.default.fileExists(atPath: victim))
        unlink(victim)
    }

    @Test("an entry listed by a jackwave before tags, with neither birth time nor tag, is kept listed and never deleted")
    func untaggedEntryKept() throws {
        let path = dir + "/old.flac"
        try Data(repeating: 1, count: 5000).write(to: URL(fileURLWithPath: path))
        var info = stat()
        #expect(stat(path, &info) == 0)
        // As the last version wrote it where the file system kept no birth time.
        let text = "{\"jackwave_manifest\":1}\n{\"created\":0,\"dev\":\(info.st_dev),\"ino\":\(info.st_ino),\"path\":\"old.flac\"}\n"
        let fd = open(dir + "/.jackwave-hall.manifest", O_WRONLY | O_CREAT | O_EXCL, 0o600)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(bytes: 1)) { _ in }
        #expect(try prune(r).isEmpty)
        #expect(exists("old.flac"))
        #expect(r.listedFiles == ["old.flac"])
    }

    @Test("a rewrite that can be told from no later file is refused, and the entry keeps its old identity")
    func unprovenRewriteRefused() throws {
        let r = try Retention(root: dir, name: "hall", limits: RetentionLimits(bytes: 1 << 30)) { _ in }
        let file = try make(r, "a.flac", bytes: 100, ageDays: 1, now: Self.now)
        #expect(throws: RetentionError.self) {
            try r.replaced(file.relativePath, by: FileIdentity(device: 1, inode: 2, born: nil, tag: nil))
        }
        #expect(r.listedFiles == ["a.flac"])
    }

    @Test("--keep and --keep-space read ages and sizes with their units", arguments: [
        ("30d", 2_592_000.0), ("12h", 43200), ("90m", 5400), ("2w", 1_209_600), ("3600s", 3600), ("1.5d", 129_600),
    ])
    func ages(text: String, seconds: Double) {
        #expect(RetentionLimits.parseAge(text) == seconds)
    }

    @Test("sizes are powers of 1024; below 1 MiB, without a unit or negative is refused")
    func sizes() {
        #expect(RetentionLimits.parseSize("50G") == 50 << 30)
        #expect(RetentionLimits.parseSize("500M") == 500 << 20)
        #expect(RetentionLimits.parseSize("2TiB") == 2 << 40)
        #expect(RetentionLimits.parseSize("1.5g") == 3 << 29)
        for bad in ["50", "100K", "-1G", "G", "1e400G", "30d"] { #expect(RetentionLimits.parseSize(bad) == nil, "\(bad)") }
        for bad in ["30", "0d", "-1d", "d", "1y"] { #expect(RetentionLimits.parseAge(bad) == nil, "\(bad)") }
    }

    @Test("a listed file whose mtime is set to the far past (tmpfs takes any 64-bit second) is aged without trapping, and kept")
    func farPastModificationTime() throws {
        // Once trapped the recorder: the wall clock less that mtime overflowed an Int.
        let shm = "/dev/shm/jackwave-retention-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: shm, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: shm) }
        // An earlier run's file (its retention ended, and its lock let go, with the scope).
        let file = try {
            let earlier = try Retention(root: shm, name: "hall", limits: RetentionLimits(seconds: 86400)) { _ in }
            let file = try ExclusiveFile.create(under: shm, relative: "old.flac")
            try earlier.record(file, created: WallClockTime(seconds: Self.now, nanoseconds: 0), monotonic: 0)
            close(file.descriptor)
            earlier.release(file.relativePath, at: 0)
            return file
        }()
        var times = [timespec(tv_sec: Int.min + 1, tv_nsec: 0), timespec(tv_sec: Int.min + 1, tv_nsec: 0)]
        try #require(utimensat(AT_FDCWD, file.path, &times, AT_SYMLINK_NOFOLLOW) == 0)
        let r = try Retention(root: shm, name: "hall", limits: RetentionLimits(seconds: 86400), monotonic: 0) { _ in }
        #expect(r.prune(now: WallClockTime(seconds: Self.now, nanoseconds: 0), monotonic: 60).deletions.isEmpty)
        #expect(FileManager.default.fileExists(atPath: file.path))
    }
}
