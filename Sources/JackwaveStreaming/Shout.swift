import CShout
import JackwaveVocabulary

/// libshout.so.3, loaded with `dlopen` by the first stream instead of linked: a run that does
/// not stream never maps it, nor OpenSSL, Theora, Speex and cairo, which it pulls in. The
/// Debian package suggests libshout3 (scripts/package).
public enum Shout {
    /// The table of libshout's functions (`jackwave_shout_load`, in CShout/shim.h), with
    /// `shout_init` called, or why it could not be loaded. Loaded once, on first use (a
    /// static `let`: once, thread-safely); `nonisolated(unsafe)`: written only by that
    /// initialiser, read-only afterwards.
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
