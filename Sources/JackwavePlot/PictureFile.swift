import Glibc
import JackwaveSoundFiles

/// Writing a picture: one drawing routine, onto a PNG (image) or an SVG surface. Drawn into a
/// temporary beside `path` (`CreatedFile.temporary`) on jackwave's own descriptor and renamed
/// into place only when complete, so a failure leaves no truncated picture and a link at
/// `path` is replaced, not followed.
public enum PictureFile {
    /// What is done when a file is already at the picture's path.
    public enum Existing: Sendable, Equatable {
        /// Replace it (`--force`).
        case replace
        /// Refuse: the picture is not written.
        case refuse
        /// Write it under the next free name instead (`pic_2.png`, `_3` … up to `_999`),
        /// as recordings are: a run's pictures, made as its pieces close.
        case nextFreeName
    }

    /// Writes the picture at `path`, or where `existing` says; returns the path written.
    @discardableResult
    public static func write(_ path: String, format: PlotFormat, layout: PlotLayout, existing: Existing = .refuse,
                             draw: (CairoContext) -> Void) throws(PlotError) -> String {
        // cairo is loaded here, after every input was checked (bad input: exit 2 whether or
        // not cairo is there) and before the first file is touched.
        try CairoLibrary.require()
        let temporary: (fd: Int32, path: String)
        do throws(CreatedFileError) { temporary = try CreatedFile.temporary(beside: path) } catch {
            throw .failed(error.message)
        }
        let output = CairoOutput(fd: temporary.fd)
        var open = true
        do throws(PlotError) {
            switch format {
            case .png:
                let surface = CairoSurface.image(width: layout.width, height: layout.height)
                try drawChecked(on: surface, draw)
                if let e = surface.writePNG(to: output) { throw .failed("\(path): cannot write the PNG (\(e))") }
            case .svg:
                let surface = CairoSurface.svg(writingTo: output, width: Double(layout.width), height: Double(layout.height))
                if let e = surface.error { throw .failed("\(path): cannot write the SVG (\(e))") }
                surface.useSVGPixels()
                try drawChecked(on: surface, draw)
                surface.finish()
                if let e = output.failure ?? surface.error { throw .failed("\(path): cannot write the SVG (\(e))") }
            }
            open = false
            if close(temporary.fd) != 0 {
                throw .failed("\(path): cannot write the picture (\(String(cString: strerror(errno))))")
            }
            return try place(temporary.path, at: path, existing: existing)
        } catch {
            if open { close(temporary.fd) }
            unlink(temporary.path)
            throw error
        }
    }

    /// Moves the finished temporary to `path`, or to the next free name: never over a file
    /// that is there unless `existing` says to replace it (the name is taken atomically,
    /// `RENAME_NOREPLACE`: a file made there meanwhile is not replaced either).
    private static func place(_ temporary: String, at path: String, existing: Existing) throws(PlotError) -> String {
        let (stem, ext) = FileNames.stemAndExtension(path)
        for n in 1...ExclusiveFile.maximumSuffix {
            let candidate = n == 1 ? path : "\(stem)_\(n)\(ext)"
            do throws(CreatedFileError) {
                try CreatedFile.moveIntoPlace(temporary, at: candidate, replacing: existing == .replace)
                return candidate
            } catch where error.exists && existing == .nextFreeName {
                continue
            } catch where error.exists {
                throw .failed("\(path) exists; it is not replaced")
            } catch {
                throw .failed(error.message)
            }
        }
        throw .failed("\(path): \(ExclusiveFile.maximumSuffix) files of that name exist already")
    }

    /// Runs `draw` on a fresh context and reports cairo's first error, if any.
    private static func drawChecked(on surface: CairoSurface, _ draw: (CairoContext) -> Void) throws(PlotError) {
        if let e = surface.error { throw .failed("cannot create the picture (\(e))") }
        let ctx = CairoContext(surface)
        draw(ctx)
        if let e = ctx.error { throw .failed("drawing failed (\(e))") }
    }
}
