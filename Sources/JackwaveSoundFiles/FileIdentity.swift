import CGlibcExtras
import Glibc

/// Which file a path reached when it was looked at, so that a file made later in its place
/// is not taken for it: device and inode, and what tells a reused inode apart. That is the
/// birth time (`statx`) where the file system keeps one, else an ownership tag (`tag(_:)`):
/// a random value in the extended attribute `user.jackwave.file`, written when jackwave
/// makes the file. With neither, retention refuses the file system.
public struct FileIdentity: Sendable, Equatable {
    public let device: UInt64
    public let inode: UInt64
    public let born: Int64?
    public let tag: String?

    /// The extended attribute that holds the tag.
    public static let tagAttribute = "user.jackwave.file"

    public init(device: UInt64, inode: UInt64, born: Int64?, tag: String? = nil) {
        self.device = device
        self.inode = inode
        self.born = born
        self.tag = tag
    }

    /// The identity of the file open at `descriptor` (zeros if it cannot be read).
    public init(descriptor: Int32) {
        var info = stat()
        let known = fstat(descriptor, &info) == 0
        var born: Int64 = 0
        let hasBirth = jackwave_birth_time(descriptor, "", &born) == 0 && born != 0
        self.init(device: known ? UInt64(info.st_dev) : 0, inode: known ? UInt64(info.st_ino) : 0,
                  born: hasBirth ? born : nil, tag: Self.readTag(descriptor))
    }

    /// Whether this identity tells the file from a later one with the same inode number.
    public var isProof: Bool { born != nil || tag != nil }

    /// Writes a new random tag into the open file at `descriptor`; the tag, or nil where
    /// the file system keeps no extended attributes (or refused).
    public static func tag(_ descriptor: Int32) -> String? {
        // 128 bits from the system's generator (getrandom): no one guesses another's tag.
        var generator = SystemRandomNumberGenerator()
        let value = String(printf: "%016llx%016llx", generator.next() as UInt64, generator.next() as UInt64)
        let status = value.withCString { jackwave_set_attribute(descriptor, tagAttribute, $0, UInt(strlen($0))) }
        return status == 0 ? value : nil
    }

    /// The tag of the open file at `descriptor`, if it has one.
    public static func readTag(_ descriptor: Int32) -> String? {
        if case let .success(tag) = lookUpTag(descriptor) { return tag }
        return nil
    }

    /// The tag of the open file at `descriptor`: the tag, nil when the file has none (or
    /// one no tag of jackwave's could be), or the errno of a look that failed.
    public static func lookUpTag(_ descriptor: Int32) -> Result<String?, TagLookupError> {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { jackwave_get_attribute(descriptor, tagAttribute, $0.baseAddress, UInt($0.count)) }
        if n > 0 && n < 64 { return .success(String(decoding: buffer[..<Int(n)], as: UTF8.self)) }
        // No such attribute, or one longer than any tag: not a tag of jackwave's.
        if n >= 0 || n == -Int(ENODATA) || n == -Int(ERANGE) { return .success(nil) }
        return .failure(TagLookupError(errno: Int32(-n)))
    }

    /// Copies the tag of the file at `path` (if any) onto the open file at `descriptor`: a
    /// rewrite of one of jackwave's files (its cue points) stays jackwave's.
    public static func copyTag(from path: String, to descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { jackwave_get_path_attribute(path, tagAttribute, $0.baseAddress, UInt($0.count)) }
        guard n > 0 && n < 64 else { return }
        _ = buffer.withUnsafeBytes { jackwave_set_attribute(descriptor, tagAttribute, $0.baseAddress, UInt(n)) }
    }

    /// Whether the folder open at `descriptor` is on a file system that can tell a file from
    /// a later one with its inode number: one that keeps birth times or extended attributes.
    public static func canTell(directory descriptor: Int32) -> Bool {
        var born: Int64 = 0
        if jackwave_birth_time(descriptor, "", &born) == 0 && born != 0 { return true }
        let n = jackwave_get_attribute(descriptor, tagAttribute, nil, 0)
        return n >= 0 || n == -Int(ENODATA)
    }
}

/// A look at a file's ownership tag failed (not "no tag": an error), with its errno.
public struct TagLookupError: Error, Equatable {
    public let errno: Int32
}
