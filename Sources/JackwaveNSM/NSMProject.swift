import Glibc

/// jackwave's folder in a session (the path an open gives), and its settings file.
///
/// The folder holds everything: `jackwave.args`, the recording's files, and whatever else
/// the settings name, so that the manager can copy, move or delete a client whole. The
/// settings file is written once, with the defaults, when it does not exist; after that it
/// is the user's, and jackwave only reads it.
public struct NSMProject: Sendable {
    /// The folder, absolute.
    public let folder: String
    /// Whether this open made the settings file (the first open of this client).
    public let createdSettings: Bool

    /// The settings file's name in the folder.
    public static let settingsName = "jackwave.args"

    public var settingsPath: String { folder + "/" + Self.settingsName }

    /// Makes the folder if it does not exist (0755), and the settings file in it, holding
    /// `defaults`, if that does not exist (`O_EXCL|O_NOFOLLOW`, 0644); the one-line reason
    /// if either fails. The defaults are the command line's to spell.
    public init(opening path: String, defaults: String) throws(NSMClientError) {
        guard path.hasPrefix("/") else { throw NSMClientError("the session's path \(path) is not absolute") }
        folder = path
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw NSMClientError("cannot make \(path): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw NSMClientError("\(path) is not a folder")
        }
        let settings = path + "/" + Self.settingsName
        let fd = open(settings, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if fd < 0 {
            guard errno == EEXIST else { throw NSMClientError("cannot make \(settings): \(String(cString: strerror(errno)))") }
            createdSettings = false
            return
        }
        defer { close(fd) }
        let bytes = Array(defaults.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else {
            unlink(settings)
            throw NSMClientError("cannot write \(settings): \(String(cString: strerror(errno)))")
        }
        createdSettings = true
    }
}
