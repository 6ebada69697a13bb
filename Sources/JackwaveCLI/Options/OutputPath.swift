import Foundation

/// Checks that a path can be created as a new output file, before anything is touched:
/// the directory exists and is writable, the path is not a directory, and an existing
/// file is only replaced with `--force`.
public enum OutputPath {
    public static func check(_ path: String, force: Bool, option: String) throws(UsageError) {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw UsageError("\(option) \(path): is a directory") }
            if !force { throw UsageError("\(option) \(path): file exists (use --force to overwrite it)") }
            if !fm.isWritableFile(atPath: path) { throw UsageError("\(option) \(path): not writable") }
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        let dir = directory.isEmpty ? "." : directory
        guard fm.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("\(option) \(path): directory \(dir) does not exist")
        }
        guard fm.isWritableFile(atPath: dir) else {
            throw UsageError("\(option) \(path): directory \(dir) is not writable")
        }
    }

    /// The absolute path with `.`, `..` and symbolic links in its directory resolved, for
    /// telling whether two spellings name one file.
    public static func canonical(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL
            .appendingPathComponent(url.lastPathComponent).path
    }
}
