import Foundation
import Glibc
@testable import JackwaveCLI
import Testing

/// A screen writing into a pipe, and what has come out of it so far.
private final class PipeScreen {
    let screen: TerminalScreen
    private let readFD: Int32
    private let writeFD: Int32

    init() {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        readFD = fds[0]
        writeFD = fds[1]
        _ = fcntl(readFD, F_SETFL, O_NONBLOCK)
        screen = TerminalScreen(fd: writeFD)
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Everything written since the last call.
    func take() -> String {
        var data = [UInt8](repeating: 0, count: 65536)
        let n = read(readFD, &data, data.count)
        return n > 0 ? String(decoding: data[0..<n], as: UTF8.self) : ""
    }
}

private let esc = "\u{1B}["

/// Serialized: screens arm the process-wide signal restore.
@Suite("TerminalScreen", .serialized)
struct TerminalScreenTests {
    @Test("The first frame hides the cursor and turns wrap off; the next goes back up and overwrites")
    func redrawInPlace() {
        let p = PipeScreen()
        p.screen.draw(["a", "b", "c"], width: 80)
        let first = p.take()
        #expect(first.contains(esc + "?25l") && first.contains(esc + "?7l"))
        #expect(first.contains("a" + esc + "K\nb" + esc + "K\nc" + esc + "K"))
        p.screen.draw(["d", "e", "f"], width: 80)
        let second = p.take()
        #expect(second.hasPrefix(esc + "?2026h\r" + esc + "2A"))
        #expect(!second.contains(esc + "?25l"))
        #expect(second.contains("d" + esc + "K\ne" + esc + "K\nf" + esc + "K"))
        p.screen.restore()
    }

    @Test("A printed line goes where the meter was, and the meter is drawn again below it")
    func printAbove() throws {
        let p = PipeScreen()
        p.screen.draw(["m1", "m2"], width: 80)
        _ = p.take()
        p.screen.printAbove("jackwave: hello")
        let out = p.take()
        #expect(out.contains("\r" + esc + "1A" + esc + "J"))
        let message = try #require(out.range(of: "jackwave: hello\n"), "\(out)")
        let meter = try #require(out.range(of: "m1" + esc + "K\nm2"), "\(out)")
        #expect(message.upperBound <= meter.lowerBound)
        p.screen.restore()
    }

    @Test("restore shows the cursor and turns wrap back on, once")
    func restoreTerminal() {
        let p = PipeScreen()
        p.screen.draw(["x"], width: 80)
        _ = p.take()
        p.screen.restore()
        let out = p.take()
        #expect(out.contains(esc + "?25h") && out.contains(esc + "?7h"))
        p.screen.restore()
        #expect(p.take().isEmpty)
    }
}
