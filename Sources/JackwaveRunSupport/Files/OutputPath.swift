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

    /// The longest path the system takes, in bytes with its final NUL (Linux's PATH_MAX).
    public static let pathMaximum = 4096
    /// A file name's longest where the folder cannot say (`pathconf`): Linux's NAME_MAX.
    public static let nameMaximum = 255

    /// Checks that `path`, in the widest form jackwave may give its last component, fits the
    /// system's limits: each component at most NAME_MAX bytes (`pathconf(_PC_NAME_MAX)` of
    /// the nearest folder that exists, else 255), the whole path less than PATH_MAX (4096).
    /// The widest form is the temporary that replaces a file once complete (cue points, a
    /// picture: `CreatedFile.temporary`) of the name with a suffix (a name taken:
    /// `ExclusiveFile`, `PictureFile`): `take.wav` as `.take_999.wav.XXXXXX`, 12 bytes more.
    /// One line naming `option` otherwise (exit 2): a name too long would lose the take it
    /// was made for (ENAMETOOLONG), once the run had begun.
    public static func checkLength(_ path: String, option: Setting) throws(UsageError) {
        let directory = FileNames.directory(path)
        let (stem, ext) = FileNames.stemAndExtension(FileNames.lastComponent(path))
        let widest = "." + stem + "_\(ExclusiveFile.maximumSuffix)" + ext + ".XXXXXX"
        let whole = (directory.isEmpty ? "" : directory.hasSuffix("/") ? directory : directory + "/") + widest
        guard whole.utf8.count < pathMaximum else {
            throw UsageError("\(setting: option) \(path): its files' paths may be \(whole.utf8.count) bytes, and the system takes less than \(pathMaximum) (PATH_MAX)")
        }
        let most = nameMaximum(near: directory)
        let components = directory.split(separator: "/").map(String.init) + [widest]
        if let long = components.first(where: { $0.utf8.count > most }) {
            let what = long == widest ? "a name jackwave may give its files, \(widest)," : "the folder name \(long)"
            throw UsageError("\(setting: option) \(path): \(what) is \(long.utf8.count) bytes; this folder takes at most \(most) (NAME_MAX)")
        }
    }

    /// NAME_MAX of the nearest folder of `directory` that exists (its file system's), 255
    /// where none says.
    static func nameMaximum(near directory: String) -> Int {
        var folder = directory.isEmpty ? "." : directory
        // Each step drops a component, so the walk ends; the bound only says so.
        for _ in 0..<pathMaximum {
            let most = pathconf(folder, Int32(_PC_NAME_MAX))
            if most > 0 { return most }
            let up = FileNames.directory(folder)
            let next = up.isEmpty ? "." : up
            if next == folder { break }
            folder = next
        }
        return nameMaximum
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
