import FoundationEssentials
import Glibc

/// The list of files (and folders) one jackwave made in a folder, kept beside them so that
/// retention deletes those and nothing else: `.jackwave-NAME.manifest`, JSON Lines.
///
/// ```
/// {"jackwave_manifest":3}
/// {"born":1741957200123456789,"created":1741957200,"dev":2049,"ino":1835011,"path":"2025-03-14/1400.flac"}
/// {"born":1741957300123456789,"created":1741957300,"dev":2049,"ino":1835012,"held":5400.5,"path":"2025-03-14/1500.flac"}
/// {"folder":"2025-03-14"}
/// ```
/// - A file is listed the moment it is made (`ExclusiveFile`), with its device, inode and
///   birth time (`statx`), or an ownership tag where the file system keeps no birth time
///   (`FileIdentity`): retention touches a listed path only while it is still that same file,
///   so a file put in its place by someone else is never deleted (the entry is dropped
///   instead), even one that got the freed inode number.
/// - A file held back from the wall clock (`Retention`: written before a suspected clock
///   step) carries `held`: the seconds jackwave has seen pass since, added up across runs.
/// - Paths are relative to the folder, without `..` or a leading `/`; folders are listed
///   when jackwave made them, and removed only once empty.
/// - Written safely: created with `O_CREAT | O_EXCL | O_NOFOLLOW` (mode 0600); every change
///   is a whole new copy in a `mkstemp` temporary beside it, `fsync`ed and renamed over the
///   old one, so that a crash leaves the old list or the new, never half of one.
/// - Read only if it is a regular file owned by this user and writable by nobody else (a list
///   of paths to delete must be jackwave's own), at most `maximumBytes`.
struct FileManifest {
    /// One file jackwave made.
    struct Entry: Codable, Equatable {
        var path: String
        var dev: UInt64
        var ino: UInt64
        /// Unix seconds when it was made.
        var created: Int
        /// Its birth time (`statx`), nanoseconds, where the filesystem keeps one: with `dev` and
        /// `ino`, it tells a file of ours from a later one that got the same inode number.
        var born: Int64?
        /// Where there is no birth time: the ownership tag jackwave wrote into the file's
        /// extended attributes (`FileIdentity`), which does the same.
        var tag: String?
        /// Set while the wall clock is not believed about this file (it was written before a
        /// suspected clock step): how many seconds jackwave has seen pass since, on the
        /// monotonic clock, added up across runs as of the last save. It ages by this alone.
        var held: Double?
    }

    private struct Header: Codable { var jackwave_manifest: Int }
    private struct Folder: Codable { var folder: String }

    var files: [Entry] = []
    var folders: [String] = []

    static let maximumBytes = 64 << 20
    /// 2 since entries may carry a tag: a jackwave before tags refuses the list (retention
    /// off, said) rather than trust a tagged entry by its inode alone. 3 while an entry is
    /// `held`: a jackwave before holds would read the entry by the wall clock, which is the
    /// very thing the hold says not to do, so it must refuse the list instead. A list with
    /// nothing held is still written as 2, which those jackwaves read. 1 is still read.
    static let version = 2
    static let heldVersion = 3

    /// Reads the manifest at `name` in the folder `directory` (an open descriptor); an empty
    /// one if there is none yet.
    static func load(directory: Int32, name: String) throws(RetentionError) -> FileManifest {
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return FileManifest() }
            throw RetentionError("\(name): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw RetentionError("\(name): not a regular file") }
        guard info.st_uid == geteuid(), info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw RetentionError("\(name): not this user's, or writable by others: not trusted as jackwave's list of its files")
        }
        guard info.st_size <= maximumBytes else { throw RetentionError("\(name): larger than \(maximumBytes >> 20) MiB") }
        var data = [UInt8](repeating: 0, count: Int(info.st_size))
        var count = 0
        while count < data.count {
            let n = data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        return try parse(Array(data[..<count]), name: name)
    }

    /// The manifest in `bytes`; refuses anything that is not one (a header first, then
    /// entries with safe paths).
    static func parse(_ bytes: [UInt8], name: String) throws(RetentionError) -> FileManifest {
        let decoder = JSONDecoder()
        var manifest = FileManifest()
        for (i, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
            let data = Data(line)
            if i == 0 {
                guard let header = try? decoder.decode(Header.self, from: data), [1, version, heldVersion].contains(header.jackwave_manifest) else {
                    throw RetentionError("\(name): not a jackwave manifest (its first line)")
                }
            } else if let entry = try? decoder.decode(Entry.self, from: data) {
                guard isSafe(entry.path) else { throw RetentionError("\(name): line \(i + 1): an unsafe path") }
                manifest.files.append(entry)
            } else if let folder = try? decoder.decode(Folder.self, from: data) {
                guard isSafe(folder.folder) else { throw RetentionError("\(name): line \(i + 1): an unsafe path") }
                manifest.folders.append(folder.folder)
            } else {
                throw RetentionError("\(name): line \(i + 1) is not a manifest entry")
            }
        }
        return manifest
    }

    /// Relative, with no empty, `.` or `..` component.
    static func isSafe(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && path.utf8.count <= 4096
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
            && !path.unicodeScalars.contains { $0.value < 0x20 }
    }

    /// The manifest as bytes: the header, the files, the folders, one object a line.
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out: [UInt8] = []
        func line<T: Encodable>(_ value: T) {
            if let data = try? encoder.encode(value) { out.append(contentsOf: data); out.append(UInt8(ascii: "\n")) }
        }
        line(Header(jackwave_manifest: files.contains { $0.held != nil } ? Self.heldVersion : Self.version))
        for file in files { line(file) }
        for folder in folders { line(Folder(folder: folder)) }
        return out
    }

    /// Writes the manifest as `name` in `directory`: the first time with `O_EXCL|O_NOFOLLOW`,
    /// then through a `mkstemp` temporary renamed over it (see the type's note).
    func save(directory: Int32, path directoryPath: String, name: String) throws(RetentionError) {
        let bytes = encoded()
        var template = Array((directoryPath + "/" + name + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw RetentionError("\(name): cannot make a temporary: \(String(cString: strerror(errno)))") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var ok = fchmod(fd, 0o600) == 0
        var done = 0
        while ok && done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            ok = n > 0
            if ok { done += n }
        }
        ok = ok && fsync(fd) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        guard ok, renameat(AT_FDCWD, temporary, directory, name) == 0 else {
            unlink(temporary)
            throw RetentionError("\(name): cannot be written: \(ok ? String(cString: strerror(errno)) : reason)")
        }
        _ = fsync(directory)
    }

    /// Creates an empty manifest as `name` (`O_CREAT | O_EXCL | O_NOFOLLOW`, 0600), so that a
    /// link or a file put there first is refused; then saves it whole.
    static func create(directory: Int32, path: String, name: String) throws(RetentionError) {
        let fd = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw RetentionError("\(name): \(String(cString: strerror(errno)))") }
        close(fd)
        try FileManifest().save(directory: directory, path: path, name: name)
    }
}

/// Retention cannot work as asked: one line.
public struct RetentionError: Error, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
