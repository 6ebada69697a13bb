import CFFTW

/// libfftw3.so.3, loaded with `dlopen` when the first measurement is analysed, not linked, so
/// that recording and metering never map it (as cairo and libsoxr; BENCHMARKS.md, footprint).
/// FFTW because Debian ships it as a C library with a stable interface and it transforms any
/// length in double precision; pocketfft has no C library of its own in Debian.
enum FFTWLibrary {
    /// The table of FFTW's functions (`jackwave_fftw_load`, in CFFTW/shim.h), or why it could not
    /// be loaded; loaded once, on first use. `nonisolated(unsafe)`: written only by the initialiser.
    nonisolated(unsafe) static let loaded: Result<UnsafePointer<jackwave_fftw>, MeasureError> = {
        let table = UnsafeMutablePointer<jackwave_fftw>.allocate(capacity: 1)
        if let reason = jackwave_fftw_load(table) {
            table.deallocate()
            return .failure(MeasureError("cannot load FFTW, which measurements are analysed with (\(String(cString: reason)))"))
        }
        return .success(UnsafePointer(table))
    }()

    /// Loads FFTW if it is not loaded yet; throws (exit 1) when it cannot be.
    static func require() throws(MeasureError) { _ = try loaded.get() }
}

/// The FFTW library jackwave measures with.
public enum FFTW {
    /// Loads FFTW now: a measurement calls this before it plays anything, so that a missing
    /// library fails the command before the server is touched.
    public static func load() throws(MeasureError) { try FFTWLibrary.require() }

    /// `fftw_version` ("fftw-3.3.10-sse2-avx"), or why the library could not be loaded.
    public static var version: String {
        switch FFTWLibrary.loaded {
        case .success(let fftw): return String(cString: fftw.pointee.version)
        case .failure(let error): return error.message
        }
    }
}
