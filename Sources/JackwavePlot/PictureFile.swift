import FoundationEssentials
import Glibc

/// Writing a picture: one drawing routine, onto a PNG (image) or an SVG surface.
///
/// The file is written under a hidden temporary name beside `path` and renamed over it
/// only when complete, so that a failure never leaves a truncated picture behind.
public enum PictureFile {
    public static func write(_ path: String, format: PlotFormat, layout: PlotLayout,
                             draw: (CairoContext) -> Void) throws(PlotError) {
        // cairo is loaded here, after every input was checked (bad input: exit 2 whether or
        // not cairo is there) and before the first file is touched.
        try CairoLibrary.require()
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        do throws(PlotError) {
            switch format {
            case .png:
                let surface = CairoSurface.image(width: layout.width, height: layout.height)
                try drawChecked(on: surface, draw)
                if let e = surface.writePNG(to: temporary) { throw .failed("\(path): cannot write the PNG (\(e))") }
            case .svg:
                let surface = CairoSurface.svg(path: temporary, width: Double(layout.width), height: Double(layout.height))
                if let e = surface.error { throw .failed("\(path): cannot write the SVG (\(e))") }
                surface.useSVGPixels()
                try drawChecked(on: surface, draw)
                surface.finish()
                if let e = surface.error { throw .failed("\(path): cannot write the SVG (\(e))") }
            }
            if rename(temporary, path) != 0 {
                throw .failed("\(path): cannot move the picture into place (\(String(cString: strerror(errno))))")
            }
        } catch {
            unlink(temporary)
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
