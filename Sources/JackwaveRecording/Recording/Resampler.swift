import CSoxr

/// Streaming sample-rate conversion of interleaved float frames with libsoxr: the one place
/// where jackwave calls it. Used by the writer thread only, never by the realtime callback.
///
/// Every method wraps one `soxr_*` function, named in its doc line.
///
/// Quality: `SOXR_VHQ` (28-bit precision, linear phase). Its stop band starts at the new
/// Nyquist frequency, so nothing above it folds back (aliases), and its attenuation and
/// pass-band ripple sit below the last bit of every depth jackwave writes. `SOXR_HQ` (20-bit)
/// would put images and aliases near -120 dBFS: above a 24-bit file's LSB (-144 dBFS), so
/// they would become the file's noise floor. VHQ costs little more: measured with libsoxr
/// 0.1.3 on the development machine, 60 s of stereo from 48 kHz to 44.1 kHz took 37 ms
/// (HQ 31 ms), about 0.1 % of one core, and it runs in the writer thread.
///
/// soxr compensates its own filter delay: output frame `n` is the input's time `n / outRate`,
/// so gaps (silence fed in at a given input frame) land at the matching output time.
public final class Resampler {
    private var handle: soxr_t?
    /// libsoxr's functions (`Soxr.loaded`), fetched by `init`.
    private let soxr: UnsafePointer<jackwave_soxr>
    public let channels: Int
    public let inputRate: Int
    public let outputRate: Int

    /// `soxr_version`: the version of the libsoxr this process runs with ("libsoxr-0.1.3"),
    /// or why it could not be loaded.
    public static var libraryVersion: String {
        switch Soxr.loaded {
        case .success(let soxr): return soxr.pointee.soxr_version().map { String(cString: $0) } ?? "unknown"
        case .failure(let error): return error.reason
        }
    }

    /// `soxr_create` with `soxr_quality_spec(SOXR_VHQ, 0)` (the very-high-quality recipe, see
    /// the type's doc), interleaved float in and out, one thread. Loads libsoxr first.
    public init(inputRate: Int, outputRate: Int, channels: Int) throws(ResamplerError) {
        soxr = try Soxr.loaded.get()
        var error: soxr_error_t?
        var quality = soxr.pointee.soxr_quality_spec(UInt(SOXR_VHQ), 0)
        let h = soxr.pointee.soxr_create(Double(inputRate), Double(outputRate), UInt32(channels), &error, nil, &quality, nil)
        guard let h, error == nil else {
            throw ResamplerError(reason: error.map { String(cString: $0) } ?? "soxr_create failed")
        }
        handle = h
        self.channels = channels
        self.inputRate = inputRate
        self.outputRate = outputRate
    }

    deinit { delete() }

    /// `soxr_process`: converts up to `frames` input frames (nil input: the end of the
    /// stream, flush what the filter holds) into at most `capacity` output frames.
    /// Returns the input frames used and the output frames produced; throws on a soxr error.
    public func process(_ input: UnsafePointer<Float>?, frames: Int,
                 into output: UnsafeMutablePointer<Float>, capacity: Int) throws(ResamplerError) -> (used: Int, produced: Int) {
        guard let handle else { return (0, 0) }
        var used = 0, produced = 0
        let error = soxr.pointee.soxr_process(handle, input, input == nil ? 0 : frames, &used, output, capacity, &produced)
        if let error { throw ResamplerError(reason: String(cString: error)) }
        return (used, produced)
    }

    /// `soxr_clear`: forgets the signal so far (its filter's history and what it holds), for a
    /// new stretch of audio that does not follow the last (the next take, the next connection).
    public func reset() throws(ResamplerError) {
        guard let handle else { return }
        if let error = soxr.pointee.soxr_clear(handle) { throw ResamplerError(reason: String(cString: error)) }
    }

    /// `soxr_delete`: frees the resampler. Safe to call twice.
    public func delete() {
        if let handle { soxr.pointee.soxr_delete(handle) }
        handle = nil
    }
}

/// libsoxr refused a conversion: why.
public struct ResamplerError: Error, Equatable {
    public let reason: String
}

/// libsoxr.so.0, loaded with `dlopen` by the first resampler (or `--version`) instead of
/// linked: a recording at the server's rate never maps it, nor the OpenMP runtime it pulls
/// in (about 0.4 MiB resident; BENCHMARKS.md, footprint). The Debian package still depends
/// on libsoxr0 (scripts/package).
enum Soxr {
    /// The table of libsoxr's functions (`jackwave_soxr_load`, in CSoxr/shim.h), or why it
    /// could not be loaded. Loaded once, on first use (a static `let`: once, thread-safely);
    /// `nonisolated(unsafe)`: written only by that initialiser, read-only afterwards.
    nonisolated(unsafe) static let loaded: Result<UnsafePointer<jackwave_soxr>, ResamplerError> = {
        let table = UnsafeMutablePointer<jackwave_soxr>.allocate(capacity: 1)
        guard let reason = jackwave_soxr_load(table) else { return .success(UnsafePointer(table)) }
        table.deallocate()
        return .failure(ResamplerError(reason: "cannot load libsoxr (\(String(cString: reason)))"))
    }()
}
