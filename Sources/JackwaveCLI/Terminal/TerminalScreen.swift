import FoundationEssentials
import Glibc

/// The terminal side of the live meter: redraws a block of lines in place and lets other
/// lines scroll above it. Thin on purpose: what to draw is `MeterRenderer`'s business.
///
/// A frame is one `write(2)`: (synchronized-update begin) cursor back to the meter's
/// first line, each line followed by clear-to-end-of-line, clear-below, (update end).
/// Nothing is ever erased before being overwritten, so there is no flicker. The cursor is
/// hidden and line wrap is off while the meter is up (a line that is too wide for a
/// just-narrowed terminal is cut instead of wrapping and shifting the meter);
/// `restore()` undoes both, and `TerminalRestore` does it if a signal kills the process.
/// Thread-safe: a lock orders frames and printed lines.
final class TerminalScreen {
    static let escape = "\u{1B}["
    static let hideCursor = escape + "?25l"
    static let showCursor = escape + "?25h"
    static let wrapOff = escape + "?7l"
    static let wrapOn = escape + "?7h"
    static let clearLine = escape + "K"
    static let clearBelow = escape + "J"
    /// DEC mode 2026: the terminal shows the frame only once it is complete. Terminals
    /// without it ignore the sequence.
    static let beginUpdate = escape + "?2026h"
    static let endUpdate = escape + "?2026l"

    let fd: Int32
    private let lock = PlainLock()
    /// Lines of the meter on screen now (0 before the first frame and after `restore`).
    private var drawnLines = 0
    private var lastLines: [String] = []
    private var lastWidth = 0
    private var active = false

    init(fd: Int32 = 2) { self.fd = fd }

    /// The terminal's size from `ioctl(TIOCGWINSZ)`, or 80 × 24 when `fd` is not a
    /// terminal (a forced `--meter` into a file). Asked every frame: that is how resizes
    /// are noticed, with no SIGWINCH handler.
    func size() -> (columns: Int, rows: Int) {
        var ws = winsize()
        let ok = withUnsafeMutablePointer(to: &ws) { ioctl(fd, UInt(TIOCGWINSZ), $0) } == 0
        guard ok, ws.ws_col > 0, ws.ws_row > 0 else { return (80, 24) }
        return (Int(ws.ws_col), Int(ws.ws_row))
    }

    /// Replaces the meter on screen with `lines`, `width` being the width they were made for.
    func draw(_ lines: [String], width: Int) {
        lock.lock(); defer { lock.unlock() }
        var out = Self.beginUpdate
        if !active {
            out += Self.hideCursor + Self.wrapOff
            active = true
            TerminalRestore.arm(fd: fd)
        }
        out += climb(width: width)
        out += frame(lines)
        out += Self.endUpdate
        lastLines = lines
        lastWidth = width
        drawnLines = lines.count
        Console.write(out, to: fd)
    }

    /// Prints `text` (one or more lines) where the meter is, then the meter again below
    /// it, in one write: messages scroll up above the meter instead of tearing it.
    func printAbove(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        let line = text.hasSuffix("\n") ? text : text + "\n"
        guard drawnLines > 0 else {
            Console.write(line, to: fd)
            return
        }
        // Wrap back on for the message: a long line should wrap, not be cut.
        let width = size().columns
        let out = Self.beginUpdate + climb(width: width) + Self.clearBelow + Self.wrapOn + line + Self.wrapOff
            + frame(lastLines) + Self.endUpdate
        lastWidth = width
        Console.write(out, to: fd)
    }

    /// Leaves the last frame on screen, puts the cursor on the line below it, and shows
    /// the cursor and turns wrap on again. Safe to call twice.
    func restore() {
        lock.lock(); defer { lock.unlock() }
        guard active else { return }
        active = false
        Console.write(Self.showCursor + Self.wrapOn + (drawnLines > 0 ? "\n" : ""), to: fd)
        drawnLines = 0
        TerminalRestore.disarm()
    }

    /// Printed columns of `text`: characters outside `ESC [ … final-byte` sequences.
    static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var inEscape = false, sawBracket = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if !sawBracket { sawBracket = scalar == "["; if !sawBracket { inEscape = false }; continue }
                if (0x40...0x7E).contains(scalar.value) { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" { inEscape = true; sawBracket = false; continue }
            width += 1
        }
        return width
    }

    /// From the end of the meter's last line back to the start of its first, the terminal
    /// now being `width` wide. After a resize, most terminals (tmux, VTE, kitty, iTerm2…)
    /// have re-wrapped the old frame to the new width: climb the rows it occupies now,
    /// and clear it all.
    private func climb(width: Int) -> String {
        guard drawnLines > 0 else { return "" }
        let resized = width != lastWidth
        let rows = resized
            ? lastLines.reduce(0) { $0 + max(1, (Self.visibleWidth($1) + width - 1) / width) }
            : drawnLines
        return "\r" + (rows > 1 ? Self.escape + "\(rows - 1)A" : "") + (resized ? Self.clearBelow : "")
    }

    /// The lines, each cleared to its end, the cursor left at the end of the last one.
    private func frame(_ lines: [String]) -> String {
        lines.map { $0 + Self.clearLine }.joined(separator: "\n") + Self.clearBelow
    }
}
