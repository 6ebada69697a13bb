import FoundationEssentials
import Glibc
import JackwaveSoundFiles

/// Checks that a path can be created as a new output file, before anything is touched:
/// the directory exists and is writable, the path is not a directory, and an existing
/// file is only replaced with `--force`.
public enum OutputPath {
    public static func check(_ path: String, force: Bool, option: String) throws(UsageError) {
        let fm = FileManager.default
        if let isDirectory = isDirectory(path) {
            if isDirectory { throw UsageError("\(option) \(path): is a directory") }
            if !force { throw UsageError("\(option) \(path): file exists (use --force to overwrite it)") }
            if !fm.isWritableFile(atPath: path) { throw UsageError("\(option) \(path): not writable") }
            return
        }
        let directory = FileNames.directory(path)
        let dir = directory.isEmpty ? "." : directory
        guard isDirectory(dir) == true else {
            throw UsageError("\(option) \(path): directory \(dir) does not exist")
        }
        guard fm.isWritableFile(atPath: dir) else {
            throw UsageError("\(option) \(path): directory \(dir) is not writable")
        }
    }

    /// `stat`: whether `path` is a directory, nil if nothing is there.
    static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// The absolute path with `.`, `..` and symbolic links in its directory resolved, for
    /// telling whether two spellings name one file.
    public static func canonical(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL
            .appendingPathComponent(url.lastPathComponent).path
    }
}
