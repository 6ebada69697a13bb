import FoundationEssentials
import Glibc
import Synchronization

/// `--osc PORT`: what each OSC message does, on the OSC thread.
///
/// It acts through the run's `RunControl`, as the keyboard does (the atomics the callback
/// polls, the files' cut request); a stop is an interrupt, as Ctrl-C is (`requestStop`). A
/// malformed or unknown message changes nothing and leaves one line, which the main loop
/// prints (`lines`).
public final class RemoteControl: @unchecked Sendable {
    /// Lines for stderr, moved to the run's lines on each pass of the main loop.
    public let lines = MessageQueue()
    /// The run, whichever connection runs now (none before frame 0 and while `--reconnect`
    /// waits for a server).
    private let control: RunControl
    /// Stops the run as Ctrl-C does (the first fades a tone, the second stops at once).
    private let requestStop: @Sendable () -> Void

    public init(control: RunControl, requestStop: @escaping @Sendable () -> Void) {
        self.control = control
        self.requestStop = requestStop
    }

    /// The OSC paths jackwave answers, with the arguments each takes (for the messages).
    static let usage = [
        "/jackwave/stop": "", "/jackwave/split": "", "/jackwave/status": "", "/jackwave/marker": "[label]",
        "/jackwave/tone/frequency": "HZ", "/jackwave/tone/volume": "DB", "/jackwave/tone/pause": "[0|1]",
    ]

    /// Does what `path` asks; returns the reply for the sender, if the message has one.
    public func handle(_ path: String, _ arguments: [OscArgument]) -> OscServer.Reply? {
        switch (path, arguments.count) {
        case ("/jackwave/stop", 0):
            requestStop()
            lines.post("OSC: stop")
        case ("/jackwave/split", 0):
            lines.post(control.split())
        case ("/jackwave/status", 0):
            return ("/jackwave/status", status())
        case ("/jackwave/marker", 0...1):
            if arguments.count == 1, case .other = arguments[0] { return malformed(path, arguments) }
            guard control.records, control.isRunning else { return ignored(path, "nothing is being recorded") }
            let label = arguments.first.flatMap { if case .string(let text) = $0 { text } else { nil } }
            guard let number = control.dropMarker(label: label) else { return nil }
            return ("/jackwave/marker", [.int(Int64(number))])
        case ("/jackwave/tone/frequency", 1):
            guard let hz = arguments[0].number else { return malformed(path, arguments) }
            guard control.playsTone, let rate = control.sampleRate else { return ignored(path, "no tone plays") }
            let nyquist = Double(rate) / 2
            guard hz > 0 && hz < nyquist else { return ignored(path, "\(hz) Hz is not between 0 and \(nyquist) Hz") }
            control.setTone(frequency: hz)
            lines.post(String(printf: "OSC: tone %.2f Hz", hz))
        case ("/jackwave/tone/volume", 1):
            guard let db = arguments[0].number else { return malformed(path, arguments) }
            guard control.playsTone else { return ignored(path, "no tone plays") }
            guard db <= 0 && db.isFinite else { return ignored(path, "\(db) dB is above 0 dBFS") }
            control.setTone(amplitude: Float(pow(10, db / 20)))
            lines.post(String(printf: "OSC: tone at %.1f dBFS", db))
        case ("/jackwave/tone/pause", 0...1):
            guard control.playsTone else { return ignored(path, "no tone plays") }
            let paused: Bool
            if arguments.isEmpty {
                paused = !control.playingTone.paused
            } else if let value = arguments[0].number {
                paused = value != 0
            } else {
                return malformed(path, arguments)
            }
            control.setTone(paused: paused)
            lines.post(paused ? "OSC: tone paused" : "OSC: tone resumed")
        default:
            return malformed(path, arguments)
        }
        return nil
    }

    /// state, file, frames written, xruns, dropped frames, take (0 when not armed).
    private func status() -> [OscArgument] {
        let s = control.status()
        return [.string(s.state), .string(s.file), .int(s.frames), .int(Int64(s.xruns)), .int(Int64(s.dropped)),
                .int(Int64(s.take))]
    }

    private func malformed(_ path: String, _ arguments: [OscArgument]) -> OscServer.Reply? {
        let given = arguments.isEmpty ? "no arguments" : "(" + arguments.map(\.typeName).joined(separator: ", ") + ")"
        if let expected = Self.usage[path] {
            lines.post("OSC: \(path) takes \(expected.isEmpty ? "no arguments" : expected), not \(given) (ignored)")
        } else {
            lines.post("OSC: unknown message \(path) (ignored; jackwave answers \(Self.usage.keys.sorted().joined(separator: ", ")))")
        }
        return nil
    }

    private func ignored(_ path: String, _ why: String) -> OscServer.Reply? {
        lines.post("OSC: \(path): \(why) (ignored)")
        return nil
    }
}
