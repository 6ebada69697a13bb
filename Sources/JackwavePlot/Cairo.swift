import CCairo
import Glibc

/// The one place jackwave calls cairo: each method wraps the one `cairo_*` function its doc
/// line names, reached through `cairo`, the table `CairoLibrary` loaded (dlopened, not linked).

/// cairo's functions, by their C names; `PictureFile.write` has loaded them (or thrown).
private var cairo: jackwave_cairo { CairoLibrary.table.pointee }

/// A cairo surface (an image in memory or an SVG file being written); destroyed with its owner.
public final class CairoSurface {
    let pointer: OpaquePointer
    /// The descriptor an SVG surface writes to, kept as long as the surface.
    private let output: CairoOutput?

    /// cairo's constructors never return NULL (a failure is a surface in an error state,
    /// see `error`); the pointer is optional only because it comes through a C function
    /// pointer, which Swift imports without cairo's implicit unwrapping.
    private init(_ pointer: OpaquePointer?, output: CairoOutput? = nil) {
        self.pointer = pointer!
        self.output = output
    }

    /// `cairo_image_surface_create`: a `width`×`height` ARGB32 image in memory.
    public static func image(width: Int, height: Int) -> CairoSurface {
        CairoSurface(cairo.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)))
    }

    /// `cairo_svg_surface_create_for_stream`: an SVG document, `width`×`height` points,
    /// written to `output` (a descriptor jackwave opened: cairo never opens a file itself)
    /// as it is drawn, and completed in `finish()`.
    static func svg(writingTo output: CairoOutput, width: Double, height: Double) -> CairoSurface {
        CairoSurface(cairo.cairo_svg_surface_create_for_stream(CairoOutput.write, output.closure, width, height), output: output)
    }

    /// `cairo_svg_surface_set_document_unit`: sizes in the SVG file in px (cairo's default
    /// is pt, which a browser shows a third larger than the PNG of the same plot).
    public func useSVGPixels() { cairo.cairo_svg_surface_set_document_unit(pointer, CAIRO_SVG_UNIT_PX) }

    /// `cairo_image_surface_create_from_png`: decodes a PNG file (check `status`).
    public static func image(png path: String) -> CairoSurface {
        CairoSurface(cairo.cairo_image_surface_create_from_png(path))
    }

    /// `cairo_surface_destroy`.
    deinit { cairo.cairo_surface_destroy(pointer) }

    /// `cairo_surface_status`: nil when the surface is fine, else cairo's explanation.
    public var error: String? { Cairo.describe(cairo.cairo_surface_status(pointer)) }

    /// `cairo_surface_finish`: writes out everything pending (closes an SVG file).
    public func finish() { cairo.cairo_surface_finish(pointer) }

    /// `cairo_surface_flush`: completes drawing before pixels are read directly.
    public func flush() { cairo.cairo_surface_flush(pointer) }

    /// `cairo_surface_write_to_png_stream`: encodes an image surface as PNG into `output`
    /// (a descriptor jackwave opened); nil or an error.
    func writePNG(to output: CairoOutput) -> String? {
        let status = cairo.cairo_surface_write_to_png_stream(pointer, CairoOutput.write, output.closure)
        return output.failure ?? Cairo.describe(status)
    }

    /// `cairo_image_surface_get_width`.
    public var width: Int { Int(cairo.cairo_image_surface_get_width(pointer)) }

    /// `cairo_image_surface_get_height`.
    public var height: Int { Int(cairo.cairo_image_surface_get_height(pointer)) }

    /// `cairo_image_surface_get_stride`: bytes per row of an image surface.
    public var stride: Int { Int(cairo.cairo_image_surface_get_stride(pointer)) }

    /// `cairo_image_surface_get_data`: the pixels of an image surface (nil if not an image).
    public var data: UnsafeMutablePointer<UInt8>? { cairo.cairo_image_surface_get_data(pointer) }

    /// The ARGB32 pixel at (`x`, `y`) of an image surface, as (red, green, blue, alpha) bytes
    /// (premultiplied, as cairo stores them). Built on `data` and `stride`; call `flush()` first.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        guard let base = data, x >= 0, y >= 0, x < width, y < height else { return (0, 0, 0, 0) }
        let word = UnsafeRawPointer(base + y * stride + x * 4).loadUnaligned(as: UInt32.self)
        return (UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
                UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 24))
    }
}

/// A cairo drawing context on a surface: paths, colours, text.
public final class CairoContext {
    private let pointer: OpaquePointer
    /// Kept alive as long as the context draws on it.
    public let surface: CairoSurface

    /// `cairo_create`: a context drawing on `surface`.
    public init(_ surface: CairoSurface) {
        self.surface = surface
        // Never NULL: like the surfaces, a failed context is one in an error state.
        pointer = cairo.cairo_create(surface.pointer)!
    }

    /// `cairo_destroy`.
    deinit { cairo.cairo_destroy(pointer) }

    /// `cairo_status`: nil when every drawing call so far succeeded.
    public var error: String? { Cairo.describe(cairo.cairo_status(pointer)) }

    /// `cairo_save`: pushes the drawing state (colour, clip, line width, font).
    public func save() { cairo.cairo_save(pointer) }

    /// `cairo_restore`: pops the state pushed by `save()`.
    public func restore() { cairo.cairo_restore(pointer) }

    /// `cairo_set_source_rgba`: the colour of the next fill, stroke or text.
    public func setColor(_ c: Color) { cairo.cairo_set_source_rgba(pointer, c.red, c.green, c.blue, c.alpha) }

    /// `cairo_set_line_width`.
    public func setLineWidth(_ width: Double) { cairo.cairo_set_line_width(pointer, width) }

    /// `cairo_set_line_cap`: round ends (`true`) or flat butt ends.
    public func setRoundCaps(_ round: Bool) {
        cairo.cairo_set_line_cap(pointer, round ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
    }

    /// `cairo_set_line_join`: round corners, so that a dense polyline does not spike.
    public func setRoundJoins() { cairo.cairo_set_line_join(pointer, CAIRO_LINE_JOIN_ROUND) }

    /// `cairo_set_dash`: a dashed line with `on` and `off` lengths, or solid when `on` is 0.
    public func setDash(on: Double, off: Double) {
        if on <= 0 {
            cairo.cairo_set_dash(pointer, nil, 0, 0)
        } else {
            let pattern = [on, off]
            cairo.cairo_set_dash(pointer, pattern, 2, 0)
        }
    }

    /// `cairo_paint`: fills the whole clip region with the current colour.
    public func paint() { cairo.cairo_paint(pointer) }

    /// `cairo_new_path`: forgets the current path.
    public func newPath() { cairo.cairo_new_path(pointer) }

    /// `cairo_move_to`.
    public func move(to x: Double, _ y: Double) { cairo.cairo_move_to(pointer, x, y) }

    /// `cairo_line_to`.
    public func line(to x: Double, _ y: Double) { cairo.cairo_line_to(pointer, x, y) }

    /// `cairo_rectangle`: adds a closed rectangle to the path.
    public func rectangle(x: Double, y: Double, width: Double, height: Double) {
        cairo.cairo_rectangle(pointer, x, y, width, height)
    }

    /// `cairo_new_sub_path`: the next segment starts unconnected to the last.
    public func newSubPath() { cairo.cairo_new_sub_path(pointer) }

    /// `cairo_arc`: adds a full circle to the path (after `newSubPath()`, on its own).
    public func circle(x: Double, y: Double, radius: Double) {
        cairo.cairo_arc(pointer, x, y, radius, 0, 2 * Double.pi)
    }

    /// `cairo_fill`: fills the path and clears it.
    public func fill() { cairo.cairo_fill(pointer) }

    /// `cairo_stroke`: strokes the path and clears it.
    public func stroke() { cairo.cairo_stroke(pointer) }

    /// `cairo_clip`: intersects the clip region with the path and clears the path.
    public func clip() { cairo.cairo_clip(pointer) }

    /// `cairo_select_font_face`: the sans-serif face, regular or bold.
    public func selectFont(bold: Bool) {
        cairo.cairo_select_font_face(pointer, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                               bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
    }

    /// `cairo_set_font_size`, in user units (pixels).
    public func setFontSize(_ size: Double) { cairo.cairo_set_font_size(pointer, size) }

    /// `cairo_text_extents`: how far `text` advances and how tall its ink is.
    public func measure(_ text: String) -> (width: Double, height: Double) {
        var e = cairo_text_extents_t()
        cairo.cairo_text_extents(pointer, text, &e)
        return (e.x_advance, e.height)
    }

    /// `cairo_show_text`: draws `text` with its baseline starting at the current point.
    public func showText(_ text: String) { cairo.cairo_show_text(pointer, text) }
}

/// Helpers shared by the two wrapper classes.
enum Cairo {
    /// `cairo_status_to_string`: nil for `CAIRO_STATUS_SUCCESS`, else cairo's message.
    static func describe(_ status: cairo_status_t) -> String? {
        status == CAIRO_STATUS_SUCCESS ? nil : cairo.cairo_status_to_string(status).map { String(cString: $0) }
    }
}

/// A colour with alpha, components 0…1.
public struct Color: Sendable, Equatable {
    public var red, green, blue, alpha: Double
    public init(_ red: Double, _ green: Double, _ blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    /// From a 0xRRGGBB literal.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(Double((hex >> 16) & 0xff) / 255, Double((hex >> 8) & 0xff) / 255,
                  Double(hex & 0xff) / 255, alpha: alpha)
    }
}

/// Where cairo writes a picture: a descriptor jackwave opened (`CreatedFile.temporary`), so
/// that cairo never opens a path itself. Its `write` is the `cairo_write_func_t` both stream
/// functions take; the first failed `write(2)` is kept and stops the picture.
final class CairoOutput {
    let fd: Int32
    /// The first write error, in the system's words.
    private(set) var failure: String?

    init(fd: Int32) { self.fd = fd }

    /// This object as cairo's `closure` argument (unretained: the caller keeps it alive).
    var closure: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// `write(2)` of every byte cairo hands over; `CAIRO_STATUS_WRITE_ERROR` on a failure.
    static let write: cairo_write_func_t = { closure, data, length in
        let output = Unmanaged<CairoOutput>.fromOpaque(closure!).takeUnretainedValue()
        guard output.failure == nil else { return CAIRO_STATUS_WRITE_ERROR }
        var done = 0
        while done < Int(length) {
            let n = Glibc.write(output.fd, data! + done, Int(length) - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                output.failure = n < 0 ? String(cString: strerror(errno)) : "nothing written"
                return CAIRO_STATUS_WRITE_ERROR
            }
            done += n
        }
        return CAIRO_STATUS_SUCCESS
    }
}
