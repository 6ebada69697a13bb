import CFFTW

/// libfftw3.so.3, loaded with `dlopen` when the first measurement is analysed, not linked.
///
/// Why FFTW: Debian packages it as a shared C library with a stable interface
/// (`libfftw3-dev`), it transforms any length (a tone's analysis window need not be a power
/// of two) in double precision, and it is the FFT most audio tools on Linux use. pocketfft,
/// the other candidate, ships in Debian only inside other packages (numpy, scipy), with no C
/// library of its own to link. Loaded on demand, so that recording and metering never map
/// it (as cairo and libsoxr are; BENCHMARKS.md, footprint).
enum FFTWLibrary {
    /// The table of FFTW's functions (`jackwave_fftw_load`, in CFFTW/shim.h), or why it could
    /// not be loaded. Loaded once, on first use (a static `let` is initialised once,
    /// thread-safely). `nonisolated(unsafe)`: written only by that initialiser, read-only after.
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
