import CCairo

/// libcairo.so.2, loaded with `dlopen` the first time a picture is drawn instead of linked:
/// linked, cairo and the libraries it needs were loaded by every run, recording included,
/// for a picture only `jackwave plot` draws (BENCHMARKS.md, footprint). The Debian package
/// still depends on libcairo2 (scripts/package).
enum CairoLibrary {
    /// The table of cairo's functions (`jackwave_cairo_load`, in CCairo/shim.h), or why it could
    /// not be loaded; loaded once, on first use. `nonisolated(unsafe)`: written only by the
    /// initialiser.
    nonisolated(unsafe) private static let loaded: Result<UnsafePointer<jackwave_cairo>, PlotError> = {
        let table = UnsafeMutablePointer<jackwave_cairo>.allocate(capacity: 1)
        if let reason = jackwave_cairo_load(table) {
            table.deallocate()
            return .failure(.failed("cannot load cairo, which plots are drawn with (\(String(cString: reason)))"))
        }
        return .success(UnsafePointer(table))
    }()

    /// Loads cairo if it is not yet loaded; throws (exit 1) when it cannot be.
    static func require() throws(PlotError) { _ = try loaded.get() }

    /// The loaded functions. Only after `require()` succeeded: without cairo this stops the
    /// program with the reason (a broken installation; `jackwave plot` reports it cleanly).
    static var table: UnsafePointer<jackwave_cairo> {
        switch loaded {
        case .success(let table): return table
        case .failure(let error): fatalError(error.message.text(naming: { "\($0)" }))
        }
    }
}
