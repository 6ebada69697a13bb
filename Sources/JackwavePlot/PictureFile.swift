import Glibc
import JackwaveSoundFiles

/// Writing a picture: one drawing routine, onto a PNG (image) or an SVG surface.
///
/// The picture is written into a temporary beside `path` (`CreatedFile.temporary`: a name
/// from `mkostemp`, which nobody can guess or plant), through cairo's stream functions on
/// jackwave's own descriptor, and renamed over `path` only when complete, so that a failure
/// never leaves a truncated picture behind, and a link at `path` is replaced, not followed.
public enum PictureFile {
    public static func write(_ path: String, format: PlotFormat, layout: PlotLayout,
                             draw: (CairoContext) -> Void) throws(PlotError) {
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
            do throws(CreatedFileError) { try CreatedFile.moveIntoPlace(temporary.path, at: path) } catch {
                throw .failed(error.message)
            }
        } catch {
            if open { close(temporary.fd) }
            unlink(temporary.path)
            throw error
        }
    }

    /// Runs `draw` on a fresh context and reports cairo's first error, if any.
    private static func drawChecked(on surface: CairoSurface, _ draw: (CairoContext) -> Void) throws(PlotError) {
        if let e = surface.error { throw .failed("cannot create the picture (\(e))") }
        let ctx = CairoContext(surface)
        draw(ctx)
        if let e = ctx.error { throw .failed("drawing failed (\(e))") }
    }
}
