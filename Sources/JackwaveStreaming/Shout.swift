import CGlibcExtras
import CShout
import Glibc
import JackwaveVocabulary

/// libshout.so.3, loaded with `dlopen` by the first stream instead of linked: a run that does
/// not stream never maps it, nor OpenSSL, Theora, Speex and cairo, which it pulls in. The
/// Debian package suggests libshout3 (scripts/package).
public enum Shout {
    /// The table of libshout's functions (`jackwave_shout_load`, in CShout/shim.h), with
    /// `shout_init` called, or why it could not be loaded; loaded once, on first use.
    /// `nonisolated(unsafe)`: written only by the initialiser.
    nonisolated(unsafe) static let loaded: Result<UnsafePointer<jackwave_shout>, LoadFailure> = {
        let table = UnsafeMutablePointer<jackwave_shout>.allocate(capacity: 1)
        if let reason = jackwave_shout_load(table) {
            table.deallocate()
            return .failure(LoadFailure(reason: "cannot load libshout (\(String(cString: reason))); install libshout3"))
        }
        table.pointee.shout_init()
        return .success(UnsafePointer(table))
    }()

    /// Why streaming cannot work on this machine, if it cannot (before any file is made).
    public static var unavailable: Phrase? {
        if case let .failure(error) = loaded { return "\(setting: .stream): \(error.reason)" }
        return nil
    }

    /// Whether the dynamic linker would find libshout, asked without loading it (ld.so's cache,
    /// or the usual folders): loading would map it and its many libraries, even for `--version`,
    /// when only a stream uses it (BENCHMARKS.md, Start-up).
    public static var installed: Bool {
        let name = JACKWAVE_SHOUT_SONAME
        let fd = open("/etc/ld.so.cache", O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            var info = stat()
            // mmap and memmem: a byte-by-byte search in Swift took 4.5 ms of a 10-ms start.
            if fstat(fd, &info) == 0, info.st_size > 0, let map = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0),
               map != MAP_FAILED {
                defer { munmap(map, Int(info.st_size)) }
                let found = name.withCString { jackwave_contains_bytes(map, UInt(info.st_size), $0, UInt(strlen($0) + 1)) != 0 }
                if found { return true }
            }
        }
        return ["/usr/lib/x86_64-linux-gnu/", "/usr/lib/aarch64-linux-gnu/", "/usr/local/lib/", "/usr/lib/", "/lib/"]
            .contains { access($0 + name, R_OK) == 0 }
    }

    /// `shout_version`: "libshout 2.4.6", or why it could not be loaded.
    public static var libraryVersion: String {
        switch loaded {
        case .success(let shout): return shout.pointee.shout_version(nil, nil, nil).map { "libshout " + String(cString: $0) } ?? "libshout"
        case .failure(let error): return error.reason
        }
    }
}

/// Why libshout could not be loaded or set up, in words that name no setting: the stream
/// says it as a failure of its link, the command line as a refusal of the stream.
struct LoadFailure: Error {
    let reason: String
}
