/// The tone's frequency and level on one terminal line, rewritten in place: the status line
/// of a run without the meter (a bare `--tone` has no inputs to meter). Lines printed
/// meanwhile scroll above it. Main thread only.
final class ToneStatusLine {
    /// Carriage return, then erase the line: the status is redrawn over itself.
    private static let eraseLine = "\r\u{1B}[2K"
    private var text = ""

    /// Shows `status` in place of the previous one.
    func show(_ status: String) {
        text = "jackwave: tone " + status
        Console.write(Self.eraseLine + text)
    }

    /// Prints a whole line above the status, then redraws the status.
    func printAbove(_ line: String) {
        Console.write(Self.eraseLine + line + "\n" + text)
    }

    /// Leaves the last status on its own line, so what follows starts on a fresh one.
    func close() {
        if !text.isEmpty { Console.write("\n") }
        text = ""
    }
}
