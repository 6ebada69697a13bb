import Glibc

/// A new file under a folder, for a path that may name folders too (a `--name-pattern` piece,
/// `2025-03-14/1400.flac`), never overwriting anything nor following a link: each folder is
/// entered `O_NOFOLLOW | O_DIRECTORY` (missing ones made), and the file is created `O_EXCL`,
/// with `_2`, `_3`, … before the extension while the name is taken (up to `maximumSuffix`).
/// It comes back open and locked, so nothing can take the name between the check and the
/// write (`SoundFile(writingTo:format:…)` takes it over).
public struct ExclusiveFile: Sendable {
    /// The path as made, under `root` as given (`root/2025-03-14/1400_2.flac`).
    public let path: String
    /// The same, relative to the root (`2025-03-14/1400_2.flac`): what a manifest keeps.
    public let relativePath: String
    /// The folders that were made for it, relative to the root, outermost first.
    public let madeFolders: [String]
    /// The new, empty file, open for writing (close-on-exec); the caller owns it.
    public let descriptor: Int32

    /// More suffixes than this means something else is wrong.
    public static let maximumSuffix = 999

    /// Makes `relative` (checked by `NamePattern`: no `..`, no leading `/`) under `root`.
    public static func create(under root: String, relative: String) throws(SoundFileError) -> ExclusiveFile {
        let components = relative.split(separator: "/").map(String.init)
        guard let name = components.last, !components.contains(".."), !relative.hasPrefix("/") else {
            throw SoundFileError(path: relative, reason: "not a relative path")
        }
        var folder = open(root.isEmpty ? "." : root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw SoundFileError(path: root, reason: String(cString: strerror(errno))) }
        defer { close(folder) }
        var made: [String] = []
        for (i, component) in components.dropLast().enumerated() {
            let sub = components[...i].joined(separator: "/")
            if mkdirat(folder, component, 0o755) == 0 { made.append(sub) } else if errno != EEXIST {
                throw SoundFileError(path: join(root, sub), reason: String(cString: strerror(errno)))
            }
            let inner = openat(folder, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard inner >= 0 else {
                throw SoundFileError(path: join(root, sub), reason: errno == ELOOP || errno == ENOTDIR ? "not a folder (a link or a file)" : String(cString: strerror(errno)))
            }
            close(folder)
            folder = inner
        }
        let (stem, ext) = FileNames.stemAndExtension(name)
        let prefix = components.dropLast().joined(separator: "/")
        for n in 1...maximumSuffix {
            let candidate = n == 1 ? name : "\(stem)_\(n)\(ext)"
            let fd = openat(folder, candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 {
                // Locked while it is written, as every file jackwave writes (`CreatedFile`).
                _ = flock(fd, LOCK_EX | LOCK_NB)
                let relativePath = prefix.isEmpty ? candidate : prefix + "/" + candidate
                return ExclusiveFile(path: join(root, relativePath), relativePath: relativePath, madeFolders: made, descriptor: fd)
            }
            guard errno == EEXIST else { throw SoundFileError(path: join(root, relative), reason: String(cString: strerror(errno))) }
        }
        throw SoundFileError(path: join(root, relative), reason: "\(maximumSuffix) files of that name exist already")
    }

    private static func join(_ root: String, _ relative: String) -> String {
        root.isEmpty || root == "." ? relative : root.hasSuffix("/") ? root + relative : root + "/" + relative
    }
}
