import Glibc

/// Single keys from a terminal on stdin, without echo or line buffering, read without
/// blocking. The terminal's previous settings come back with `restore()`.
final class KeyboardInput {
    private var saved = termios()
    private var active = false

    /// Switches stdin to raw, non-blocking reads; nil when stdin is not a terminal, or when
    /// jackwave runs in the background (`&`): changing the terminal from there would stop
    /// the whole process with SIGTTOU, realtime thread included.
    init?() {
        guard isatty(0) != 0, tcgetpgrp(0) == getpgrp(), tcgetattr(0, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        // VMIN 0 / VTIME 0: read returns at once with what is there.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        TerminalRestore.armKeyboard(saved)
        guard tcsetattr(0, TCSANOW, &raw) == 0 else {
            TerminalRestore.disarmKeyboard()
            return nil
        }
        active = true
    }

    /// Bytes typed since the last call.
    func read() -> [UInt8] {
        guard active else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = Glibc.read(0, &buffer, buffer.count)
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    /// Puts the terminal back as it was. Safe to call twice.
    func restore() {
        guard active else { return }
        tcsetattr(0, TCSANOW, &saved)
        TerminalRestore.disarmKeyboard()
        active = false
    }

    deinit { restore() }
}
