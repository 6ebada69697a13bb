import CGlibcExtras
import FoundationEssentials
import Glibc
import JackwaveSoundFiles
import Synchronization

/// `--keep` and `--keep-space`: deletes the oldest files this jackwave wrote in a folder, and
/// only those (`FileManifest`), so that a station logger stays within its time and its quota.
///
/// - **Its own files only**: a file is a candidate while the manifest lists it and its path
///   is still the same file (`FileIdentity`: the inode, and its birth time or ownership
///   tag), a regular file reached without following a link; anything
///   else in the folder (another program's files, a file put in the place of one of ours) is
///   never touched, and an entry whose file went or was replaced is dropped from the list.
/// - **Never a file in use**: the file being written, and one waiting for or running its
///   `--on-close` hook, are protected (`protect` / `release`, counted: a file written and
///   then queued for the hook is protected twice). They still count toward `--keep-space`.
/// - **Oldest first**: by when jackwave made them. `--keep`: every file whose last write
///   is older than the limit. `--keep-space`: the oldest, until the rest (`st_size` in all)
///   fits.
/// - **Never on the wall clock's word alone.** A file of this run ages by the monotonic
///   clock, from when the writer let it go. An earlier run's file ages by the wall clock
///   (`st_mtime`, its end), unless that clock says every earlier file is past `--keep` (a bad
///   RTC at boot, an NTP step). Then they are *held*: each ages only by the time jackwave
///   itself sees pass, from this run's start (each was last written before it), added up
///   across runs in the manifest (`FileManifest.Entry.held`), until that time reaches
///   `--keep`, which proves it past, whatever the wall clock says. Only that clears a hold:
///   a wall clock that agrees with the files again may be the wrong one (a bad RTC at every
///   boot, put right by NTP later), so it is not believed about them. A file of this run
///   that the wall clock already calls past `--keep` (a step forward during the run) is held
///   the same way, from its own release. `clockHold` sums up the held files; `--keep-space`
///   still applies to them meanwhile.
/// - **Only what a deletion frees counts toward `--keep-space`**: a file that another link
///   also names (`st_nlink` above 1: a backup by `cp -l` or `rsync --link-dest`) keeps its
///   blocks when jackwave deletes its name, so it neither counts nor goes for the quota
///   (`RetentionPass.linked`); deleted by age, its deletion says that it freed nothing.
/// - Each deletion goes to `onDelete` (a line and a `file_deleted` event, for the caller to
///   make), and every one is in what `prune` returns, whatever then happens to the manifest;
///   a folder jackwave made is removed once its last file has gone, if empty.
/// Thread-safe (a lock): files are recorded and released by the writer or the hook's thread,
/// pruned wherever the caller likes (it deletes files: not the realtime thread, nor the
/// writer's if the filesystem is slow to delete).
public final class Retention: @unchecked Sendable {
    public let root: String
    public let limits: RetentionLimits
    /// The manifest's name in `root`: `.jackwave-NAME.manifest`.
    public let manifestName: String
    private let onDelete: @Sendable (RetentionDeletion) -> Void
    private let state: Mutex<State>
    /// The root folder, open (`O_DIRECTORY`); all paths are resolved from it.
    private let directory: Int32
    /// The lock file's descriptor, `flock`ed for the life of this object.
    private let lock: Int32

    private struct State {
        var manifest: FileManifest
        var protected: [String: Int] = [:]
        /// This run's files: when the writer (or a hook) last let go of each, on the
        /// monotonic clock (`Monotonic.seconds`).
        var thisRun: [String: Double] = [:]
        /// Earlier files held from before a clock step: the time jackwave had seen pass since
        /// when this run began (the manifest's `held` as read; 0 for those held by this run).
        var heldBefore: [String: Double] = [:]
        var clockHold: ClockHold?
    }
    /// When this retention began, on the monotonic clock: every earlier run's file was last
    /// written before it.
    private let began: Double

    /// The earlier files that the last `prune` held from before a suspected clock step, if
    /// any (and `--keep` is set): how many, how old the newest looked by the wall clock, and
    /// the least time jackwave has seen pass since (in seconds).
    public struct ClockHold: Sendable, Equatable {
        public let files: Int
        public let newestAge: Double
        public let seen: Double
    }

    public var clockHold: ClockHold? { state.withLock { $0.clockHold } }

    /// Retention for the files listed as `NAME` in `root` (the manifest is read if it exists,
    /// made if not). Refused if another jackwave keeps the same manifest (its lock file is
    /// held), or if the manifest is not trusted (see `FileManifest`).
    public init(root: String, name: String, limits: RetentionLimits, monotonic: Double = Monotonic.seconds(),
                onDelete: @escaping @Sendable (RetentionDeletion) -> Void) throws(RetentionError) {
        began = monotonic
        guard !name.isEmpty, !name.contains("/"), name.utf8.count <= 200 else { throw RetentionError("a manifest name must be a plain name") }
        self.root = root.isEmpty ? "." : root
        self.limits = limits
        self.onDelete = onDelete
        manifestName = ".jackwave-\(name).manifest"
        directory = open(self.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw RetentionError("\(self.root): \(String(cString: strerror(errno)))") }
        guard FileIdentity.canTell(directory: directory) else {
            close(directory)
            throw RetentionError("\(self.root): this file system keeps neither birth times nor extended attributes, so a file put in the place of one of jackwave's, with its freed inode number, could not be told from it")
        }
        do throws(RetentionError) {
            lock = try Self.openLock(directory: directory, path: "\(self.root)/.jackwave-\(name).lock",
                                     name: ".jackwave-\(name).lock")
        } catch {
            close(directory)
            throw error
        }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            close(directory)
            throw RetentionError("\(self.root): another jackwave keeps the files of \(name) here (its lock is held)")
        }
        do throws(RetentionError) {
            var manifest = try FileManifest.load(directory: directory, name: manifestName)
            if faccessat(directory, manifestName, F_OK, AT_SYMLINK_NOFOLLOW) != 0 {
                try FileManifest.create(directory: directory, path: self.root, name: manifestName)
                manifest = FileManifest()
            }
            var state = State(manifest: manifest)
            for entry in manifest.files {
                if let held = entry.held { state.heldBefore[entry.path] = held.isFinite ? max(0, held) : 0 }
            }
            self.state = Mutex(state)
        } catch {
            close(lock)
            close(directory)
            throw error
        }
    }

    deinit {
        close(lock)
        close(directory)
    }

    /// The lock file, made with `O_EXCL|O_NOFOLLOW` (0600) the first time; it outlives runs,
    /// so a restart opens the one there, never following a link, and takes it only if it is
    /// a regular file of this user's that no one else can write. Another user's lock in a
    /// shared folder (0666, `flock`ed to keep jackwave out) is refused, not waited on.
    private static func openLock(directory: Int32, path: String, name: String) throws(RetentionError) -> Int32 {
        var fd = openat(directory, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 && errno == EEXIST { fd = openat(directory, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw RetentionError("\(path): \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
              info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            close(fd)
            throw RetentionError("\(path): not a regular file of this user's that only it can write: not trusted as jackwave's lock")
        }
        return fd
    }

    /// The files listed now, oldest first (relative to `root`).
    public var listedFiles: [String] { state.withLock { $0.manifest.files.map(\.path) } }

    /// Lists a file jackwave has just made (`ExclusiveFile`), protected as the file being
    /// written until `release`. Call before its first write. Throws if the file cannot be
    /// told from a later one (then it is not listed); returns why the manifest could not be
    /// saved, if it could not (the file is listed all the same, for this run).
    @discardableResult
    public func record(_ file: ExclusiveFile, created: WallClockTime = .now(),
                       monotonic: Double = Monotonic.seconds()) throws(RetentionError) -> RetentionError? {
        var info = stat()
        guard fstat(file.descriptor, &info) == 0 else { throw RetentionError("\(file.path): \(String(cString: strerror(errno)))") }
        var identity = FileIdentity(descriptor: file.descriptor)
        if !identity.isProof, let tag = FileIdentity.tag(file.descriptor) {
            identity = FileIdentity(device: identity.device, inode: identity.inode, born: nil, tag: tag)
        }
        guard identity.isProof else {
            throw RetentionError("\(file.path): neither a birth time nor an ownership tag (extended attribute) could be had, so it could not be told from a later file")
        }
        return update { state in
            state.manifest.files.append(FileManifest.Entry(path: file.relativePath, dev: identity.device, ino: identity.inode,
                                                           created: created.seconds, born: identity.born, tag: identity.tag))
            for folder in file.madeFolders where !state.manifest.folders.contains(folder) { state.manifest.folders.append(folder) }
            state.protected[file.relativePath, default: 0] += 1
            state.thisRun[file.relativePath] = monotonic
        }
    }

    /// `path` (relative to `root`) was replaced by jackwave itself with a new file of the same
    /// content (the cue points' rewrite, which `rename`s a new file into place): its entry
    /// follows the new file, so that rewriting never takes a file out of retention. Returns
    /// why the manifest could not be saved, as `record` does.
    @discardableResult
    public func replaced(_ path: String, by identity: FileIdentity) throws(RetentionError) -> RetentionError? {
        guard identity.isProof else {
            throw RetentionError("\(path): its rewrite has neither a birth time nor an ownership tag, so it could not be told from a later file")
        }
        return update { state in
            guard let i = state.manifest.files.firstIndex(where: { $0.path == path }) else { return }
            let old = state.manifest.files[i]
            state.manifest.files[i] = FileManifest.Entry(path: path, dev: identity.device, ino: identity.inode,
                                                         created: old.created, born: identity.born, tag: identity.tag,
                                                         held: old.held)
        }
    }

    /// Keeps `path` (relative to `root`) from deletion until as many `release`s: the file
    /// being written, or one queued for `--on-close`.
    public func protect(_ path: String) { state.withLock { $0.protected[path, default: 0] += 1 } }

    /// Ends one `protect` (or `record`'s) at `monotonic`: a file of this run ages from there.
    public func release(_ path: String, at monotonic: Double = Monotonic.seconds()) {
        state.withLock { state in
            if state.thisRun[path] != nil { state.thisRun[path] = monotonic }
            guard let n = state.protected[path] else { return }
            state.protected[path] = n > 1 ? n - 1 : nil
        }
    }

    /// Deletes what the limits no longer allow, as of `now`, and saves the manifest; returns
    /// every deletion made (each also told to `onDelete`), whatever then happened to the
    /// manifest. Files that went or were replaced leave the list quietly; those behind a
    /// folder swapped for a link stay listed, untouched (`Lookup.unreachable`).
    @discardableResult
    public func prune(now: WallClockTime = .now(), monotonic: Double = Monotonic.seconds()) -> RetentionPass {
        var pass = RetentionPass()
        let unsaved = update { state in pass = prune(&state, now: Double(now.seconds), monotonic: monotonic) }
        pass.unsaved = unsaved
        for deletion in pass.deletions { onDelete(deletion) }
        return pass
    }

    /// How a live file ages: this run's by the monotonic clock, a held one by the time
    /// jackwave has seen pass, any other earlier one by the wall clock.
    private enum Clock { case thisRun, held, wall }

    private func prune(_ state: inout State, now: Double, monotonic: Double) -> RetentionPass {
        var pass = RetentionPass()
        let limit = limits.seconds
        var live: [(index: Int, size: Int64, links: Int, wallAge: Double, age: Double, clock: Clock)] = []
        // The entries that stay listed, by their place in the list (which is oldest first).
        var keep = Set<Int>()
        for (index, entry) in state.manifest.files.enumerated() {
            let info: stat
            switch inspect(entry) {
            case let .same(found): info = found
            case .gone: continue
            case .unreachable: keep.insert(index); continue
            }
            // In Double: a time_t from the file system cannot overflow it.
            let wallAge = now - Double(info.st_mtim.tv_sec)
            var age = wallAge, clock = Clock.wall
            if let released = state.thisRun[entry.path] {
                age = monotonic - released
                clock = .thisRun
                // The wall clock already calls it past --keep: a step forward during the run.
                // Held for the runs after this one, from its release.
                if let limit, wallAge > limit || entry.held != nil { state.manifest.files[index].held = max(0, age) }
            } else if let held = entry.held {
                age = max(held, (state.heldBefore[entry.path] ?? 0) + monotonic - began)
                clock = .held
                state.manifest.files[index].held = age
            }
            live.append((index, Int64(info.st_size), Int(info.st_nlink), wallAge, age, clock))
        }
        // The wall clock says every earlier file (not yet held) is past --keep: none is
        // believed; all are held, aging from this run's start, unless this run has itself
        // lasted --keep (then they are past it, clock or not).
        let proven = limit.map { monotonic - began > $0 } ?? false
        let earlier = live.indices.filter { live[$0].clock == .wall }
        if let limit, !proven, !earlier.isEmpty, earlier.allSatisfy({ live[$0].age > limit }) {
            for i in earlier {
                live[i].clock = .held
                live[i].age = monotonic - began
                state.manifest.files[live[i].index].held = live[i].age
                state.heldBefore[state.manifest.files[live[i].index].path] = 0
            }
        }
        // What deleting them would free: a file another link also names frees nothing.
        // Saturating: sparse files may each claim up to 2^63 bytes.
        func sum(_ a: Int64, _ b: Int64) -> Int64 {
            let (added, overflow) = a.addingReportingOverflow(b)
            return overflow ? .max : added
        }
        var total = live.reduce(Int64(0)) { sum($0, $1.links == 1 ? $1.size : 0) }
        for file in live where file.links > 1 {
            pass.linked.files += 1
            pass.linked.bytes = sum(pass.linked.bytes, file.size)
        }
        for file in live {
            let entry = state.manifest.files[file.index]
            var reason: RetentionDeletion.Reason?
            if state.protected[entry.path] == nil {
                if let limit, file.age > limit || (file.clock == .wall && proven) {
                    reason = .age(seconds: file.clock == .wall && proven ? max(file.age, monotonic - began) : file.age)
                } else if let quota = limits.bytes, total > quota, file.links == 1 {
                    reason = .space(total: total, quota: quota)
                }
            }
            guard let reason else { keep.insert(file.index); continue }
            switch delete(entry) {
            case let .deleted(freed):
                if freed { total -= file.size }
                pass.deletions.append(RetentionDeletion(path: entry.path, bytes: file.size, reason: reason, freed: freed))
                removeEmptyFolders(above: entry.path, made: state.manifest.folders)
            case .notOurs:
                keep.insert(file.index)
            case let .failed(reason):
                keep.insert(file.index)
                pass.failures.append((entry.path, reason))
            }
        }
        // The hold that remains: the held files still listed.
        let held = live.filter { $0.clock == .held && keep.contains($0.index) }
        state.clockHold = limit != nil && !held.isEmpty
            ? ClockHold(files: held.count, newestAge: held.map(\.wallAge).min() ?? 0, seen: held.map(\.age).min() ?? 0)
            : nil
        state.manifest.files = state.manifest.files.indices.filter(keep.contains).map { state.manifest.files[$0] }
        state.manifest.folders = state.manifest.folders.filter { folderMayExist($0) }
        return pass
    }

    /// Changes the state under the lock and saves the manifest; why it could not be saved,
    /// or nil. The change stands either way: it is what is on the disk (a deletion), or what
    /// this run knows (a file listed).
    private func update(_ change: (inout State) -> Void) -> RetentionError? {
        state.withLock { state in
            change(&state)
            do throws(RetentionError) {
                try state.manifest.save(directory: directory, path: root, name: manifestName)
                return nil
            } catch {
                return error
            }
        }
    }

    /// The folder holding `path`'s last component, entered from the root without following
    /// a link, and that component; nil if a folder on the way is gone or is not a folder.
    private func parent(of path: String) -> (fd: Int32, name: String)? {
        if case let .folder(fd, name) = walk(to: path) { return (fd, name) }
        return nil
    }

    private enum Walk {
        /// The open folder holding the last component, and that component.
        case folder(Int32, String)
        /// A folder on the way does not exist.
        case missing
        /// A folder on the way is something else: a link put in its place, or a file.
        case blocked
    }

    private func walk(to path: String) -> Walk {
        let parts = path.split(separator: "/").map(String.init)
        guard let last = parts.last else { return .missing }
        var fd = dup(directory)
        guard fd >= 0 else { return .blocked }
        for part in parts.dropLast() {
            let inner = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let failure = errno
            close(fd)
            guard inner >= 0 else { return failure == ENOENT ? .missing : .blocked }
            fd = inner
        }
        return .folder(fd, last)
    }

    private enum Lookup {
        /// The path reaches the listed file.
        case same(stat)
        /// Nothing is there, or another file: the entry leaves the list.
        case gone
        /// The path cannot be followed without a link (a folder swapped for one): the entry
        /// stays listed, untouched and uncounted, until the way is a folder again. Dropping it
        /// would let a folder moved away and back escape retention for good.
        case unreachable
    }

    /// Whether `entry`'s path still reaches that same regular file.
    private func inspect(_ entry: FileManifest.Entry) -> Lookup {
        switch walk(to: entry.path) {
        case .missing: return .gone
        case .blocked: return .unreachable
        case let .folder(fd, name):
            defer { close(fd) }
            return lookUp(entry, in: fd, name: name)
        }
    }

    /// The file `name` in the folder `fd`, if it is `entry`'s: a regular file (not followed
    /// if a link) with its device and inode, and its birth time or, where the file system
    /// keeps none, its ownership tag (`FileIdentity`). `.gone` only on proof that it is not
    /// (nothing there, another inode, another birth time, no tag or another); a look that
    /// fails (a file made unreadable, out of descriptors, an I/O error), or an entry with
    /// neither a birth time nor a tag (listed by a jackwave before tags), is `.unreachable`:
    /// kept, never deleted.
    private func lookUp(_ entry: FileManifest.Entry, in fd: Int32, name: String) -> Lookup {
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return errno == ENOENT ? .gone : .unreachable }
        guard info.st_mode & S_IFMT == S_IFREG, UInt64(info.st_dev) == entry.dev, UInt64(info.st_ino) == entry.ino else {
            return .gone
        }
        if let born = entry.born {
            var now: Int64 = 0
            guard jackwave_birth_time(fd, name, &now) == 0 else { return .unreachable }
            return now == born ? .same(info) : .gone
        }
        guard let tag = entry.tag else { return .unreachable }
        let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard file >= 0 else { return errno == ENOENT ? .gone : .unreachable }
        defer { close(file) }
        var opened = stat()
        guard fstat(file, &opened) == 0 else { return .unreachable }
        guard opened.st_dev == info.st_dev, opened.st_ino == info.st_ino else { return .gone }
        switch FileIdentity.lookUpTag(file) {
        case let .success(found): return found == tag ? .same(info) : .gone
        case .failure: return .unreachable
        }
    }

    private enum Deletion {
        /// Unlinked; `freed` false if another link kept the file (its blocks stay).
        case deleted(freed: Bool)
        /// No longer ours when checked again: left alone.
        case notOurs
        /// The unlink failed (a folder that cannot be written, an I/O error): why.
        case failed(String)
    }

    /// Unlinks the file of `entry`, checked again just before. Whether that freed it is read
    /// from the file itself, held open across the unlink (its link count after: a link made
    /// meanwhile counts), or, if it cannot be opened (made unreadable), from its link count
    /// before.
    private func delete(_ entry: FileManifest.Entry) -> Deletion {
        guard let (fd, name) = parent(of: entry.path) else { return .notOurs }
        defer { close(fd) }
        guard case let .same(info) = lookUp(entry, in: fd, name: name) else { return .notOurs }
        let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        defer { if file >= 0 { close(file) } }
        var opened = stat()
        if file >= 0 {
            guard fstat(file, &opened) == 0, opened.st_dev == info.st_dev, opened.st_ino == info.st_ino else { return .notOurs }
        }
        guard unlinkat(fd, name, 0) == 0 else { return .failed(String(cString: strerror(errno))) }
        guard file >= 0 else { return .deleted(freed: info.st_nlink <= 1) }
        var after = stat()
        return .deleted(freed: fstat(file, &after) != 0 || after.st_nlink == 0)
    }

    /// Removes the folders above `path` that jackwave made, innermost first, while empty
    /// (`rmdir` refuses a folder that is not).
    private func removeEmptyFolders(above path: String, made: [String]) {
        var folder = FileNames.directory(path)
        while !folder.isEmpty, made.contains(folder), let (fd, name) = parent(of: folder) {
            let removed = unlinkat(fd, name, AT_REMOVEDIR) == 0
            close(fd)
            guard removed else { return }
            folder = FileNames.directory(folder)
        }
    }

    /// False once `folder` is known to be gone; true while it is there, or its way blocked.
    private func folderMayExist(_ folder: String) -> Bool {
        switch walk(to: folder) {
        case .missing: return false
        case .blocked: return true
        case let .folder(fd, name):
            defer { close(fd) }
            var info = stat()
            guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return errno != ENOENT }
            return true
        }
    }
}

/// `clock_gettime(CLOCK_MONOTONIC)` in seconds: the clock a run's own files age by. Not
/// CLOCK_BOOTTIME: time suspended does not count, so a file is never deleted early.
public enum Monotonic {
    public static func seconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// What one `prune` did: for its lines and events.
public struct RetentionPass: Sendable {
    /// The files it deleted, oldest first.
    public var deletions: [RetentionDeletion] = []
    /// The files it could not delete (still listed, tried again at the next prune), and why.
    public var failures: [(path: String, reason: String)] = []
    /// jackwave's files that another link also names: deleting them would free nothing, so
    /// `--keep-space` neither counts them nor deletes them.
    public var linked: (files: Int, bytes: Int64) = (0, 0)
    /// Why the manifest could not be saved afterwards, if it could not.
    public var unsaved: RetentionError?
}

/// One file retention deleted: for its line and its `file_deleted` event.
public struct RetentionDeletion: Sendable, Equatable {
    /// Why it went.
    public enum Reason: Sendable, Equatable {
        /// Its last write was `seconds` ago, more than `--keep`.
        case age(seconds: Double)
        /// jackwave's files took `total` bytes, more than `--keep-space`'s `quota`.
        case space(total: Int64, quota: Int64)
    }

    /// Relative to the retention's root.
    public let path: String
    public let bytes: Int64
    public let reason: Reason
    /// False when another link to the file kept its bytes on the disk.
    public let freed: Bool

    public init(path: String, bytes: Int64, reason: Reason, freed: Bool = true) {
        self.path = path
        self.bytes = bytes
        self.reason = reason
        self.freed = freed
    }

    /// `retention: deleted 2025-02-12/1400.flac (1.2 GB, last written 30.2 days ago)`; with
    /// `; another link keeps its bytes on the disk` when it freed nothing.
    public var line: String {
        let size = String(printf: "%.1f MB", Double(bytes) / 1e6)
        let kept = freed ? "" : "; another link keeps its bytes on the disk"
        switch reason {
        case let .age(seconds):
            return "retention: deleted \(path) (\(size), last written \(String(printf: "%.1f", seconds / 86400)) days ago\(kept))"
        case let .space(total, quota):
            return "retention: deleted \(path) (\(size); jackwave's files took \(Self.binary(total)) of \(Self.binary(quota))\(kept))"
        }
    }

    /// `1.5 GiB`, `512.0 MiB`, `96.0 KiB`, `700 bytes`: the unit `--keep-space` takes (powers
    /// of 1024), the largest that keeps the figure at 1 or more, so a small quota never
    /// reads "0.0 GiB of 0.0".
    static func binary(_ bytes: Int64) -> String {
        for (unit, shift) in [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes >= Int64(1) << shift {
            return String(printf: "%.1f", Double(bytes) / Double(Int64(1) << shift)) + " " + unit
        }
        return "\(bytes) bytes"
    }
}
