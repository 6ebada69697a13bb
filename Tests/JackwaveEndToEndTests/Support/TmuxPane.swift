import Foundation
import JackwaveTestSupport

/// A program run in a real terminal: one pane of a private tmux server (own socket, no user
/// or system configuration), killed when the test lets go of it.
final class TmuxPane {
    private let socket = "jw-\(getpid())-\(UUID().uuidString.prefix(8))"

    /// Whether tmux is installed (scripts/setup installs it); tests that need it say so.
    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Runs `jackwave arguments` in a 100×30 pane, reaching `server` as a user's shell would
    /// (PipeWire's as `pw-jack` does), without colours. The pane stays open after it exits.
    init(jackwave arguments: [String], server: any TestServer) throws {
        let reach = Run.clientVariables(server: server.name, libraryPath: ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"])
            .sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let command = "env -u JACK_DEFAULT_SERVER \(reach) JACK_NO_AUDIO_RESERVATION=1 NO_COLOR= "
            + "'\(Run.jackwave)' " + arguments.map { "'\($0)'" }.joined(separator: " ") + "; sleep 120"
        _ = try tmux(["new-session", "-d", "-x", "100", "-y", "30", command])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    /// `tmux ARGS` on this pane's server; its stdout.
    @discardableResult
    func tmux(_ args: [String]) throws -> String {
        try Run.tool("/usr/bin/tmux", ["-f", "/dev/null", "-L", socket] + args, server: nil).stdout
    }

    /// What the pane shows now.
    func screen() throws -> String { try tmux(["capture-pane", "-p"]) }

    /// Waits up to `timeout` seconds until the screen satisfies `condition`; the last screen.
    @discardableResult
    func waitForScreen(timeout: Double = 30, _ condition: (String) -> Bool) throws -> String {
        var shown = try screen()
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(shown) && Date() < deadline {
            usleep(100_000)
            shown = try screen()
        }
        return shown
    }

    /// Types `keys` (tmux key names: `Up`, `C-c`, or text).
    func send(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    /// Whether the terminal's cursor is shown.
    func cursorShown() throws -> Bool { try tmux(["display", "-p", "#{cursor_flag}"]).hasPrefix("1") }
}
