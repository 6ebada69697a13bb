import FoundationEssentials
import Glibc
import JackwaveSoundFiles
import JackwaveVocabulary

/// Checks that a path can be created as a new output file, before anything is touched:
/// the directory exists and is writable, the path is not a directory nor a symbolic link
/// (jackwave never writes through one: `CreatedFile`), and an existing file is only
/// replaced with `--force`, and never while another jackwave writes it (its lock).
public enum OutputPath {
    public static func check(_ path: String, force: Bool, option: Setting) throws(UsageError) {
        let fm = FileManager.default
        var link = stat()
        if lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK {
            throw UsageError("\(setting: option) \(path): is a symbolic link; jackwave never writes through one")
        }
        if CreatedFile.isBeingWritten(path) { throw UsageError("\(setting: option) \(path): \(CreatedFile.beingWritten)") }
        if let isDirectory = isDirectory(path) {
            if isDirectory { throw UsageError("\(setting: option) \(path): is a directory") }
            if !force { throw UsageError("\(setting: option) \(path): file exists (use \(setting: .force) to overwrite it)") }
            if !fm.isWritableFile(atPath: path) { throw UsageError("\(setting: option) \(path): not writable") }
            return
        }
        let directory = FileNames.directory(path)
        let dir = directory.isEmpty ? "." : directory
        guard isDirectory(dir) == true else {
            throw UsageError("\(setting: option) \(path): directory \(dir) does not exist")
        }
        guard fm.isWritableFile(atPath: dir) else {
            throw UsageError("\(setting: option) \(path): directory \(dir) is not writable")
        }
    }

    /// `stat`: whether `path` is a directory, nil if nothing is there.
    static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// The absolute path with `.`, `..` and symbolic links in its directory resolved, for
    /// telling whether two spellings name one file. A directory that does not exist (the
    /// checks refuse it anyway) is kept as written, made absolute.
    ///
    /// With `realpath` rather than Foundation's URL, whose parser and percent-encoding a
    /// recording would otherwise page in for this one comparison (BENCHMARKS.md, footprint).
    public static func canonical(_ path: String) -> String {
        let name = FileNames.lastComponent(path)
        let directory = FileNames.directory(path)
        return (resolved(directory.isEmpty ? "." : directory) ?? absolute(directory)) + "/" + name
    }

    /// `realpath`: the directory resolved, nil if it does not exist. ("/" comes back as "",
    /// so that joining a name gives one slash.)
    static func resolved(_ directory: String) -> String? {
        guard let real = realpath(directory, nil) else { return nil }
        defer { free(real) }
        let text = String(cString: real)
        return text == "/" ? "" : text
    }

    /// `getcwd`: a relative `directory` made absolute against the working directory.
    static func absolute(_ directory: String) -> String {
        if directory.hasPrefix("/") { return directory }
        guard let cwd = getcwd(nil, 0) else { return directory }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + directory
    }
}
