import FoundationEssentials
import Glibc
import Synchronization

/// `--osc PORT`: what each OSC message does, on the OSC thread.
///
/// It never touches the realtime callback's state except through the atomics the
/// keyboard and the main loop use (`EngineSignals`) and the writer's cut request; a stop
/// is an interrupt, as Ctrl-C is (`requestStop`). A malformed or unknown message changes
/// nothing and leaves one line, which the main loop prints (`lines`).
public final class RemoteControl: @unchecked Sendable {
    /// Lines for stderr, moved to the run's lines on each pass of the main loop.
    public let lines = MessageQueue()
    /// The connection running now, nil while none is (before frame 0 and while
    /// `--reconnect` waits for a server).
    private let current = Mutex<RemoteTarget?>(nil)
    /// Stops the run as Ctrl-C does (the first fades a tone, the second stops at once).
    private let requestStop: @Sendable () -> Void

    public init(requestStop: @escaping @Sendable () -> Void) {
        self.requestStop = requestStop
    }

    /// Points remote control at a connection (main thread, before it runs), or at none.
    public func attach(_ target: RemoteTarget?) { current.withLock { $0 = target } }

    /// The OSC paths jackwave answers, with the arguments each takes (for the messages).
    static let usage = [
        "/jackwave/stop": "", "/jackwave/split": "", "/jackwave/status": "", "/jackwave/marker": "[label]",
        "/jackwave/tone/frequency": "HZ", "/jackwave/tone/volume": "DB", "/jackwave/tone/pause": "[0|1]",
    ]

    /// Does what `path` asks; returns the reply for the sender, if the message has one.
    public func handle(_ path: String, _ arguments: [OscArgument]) -> OscServer.Reply? {
        let target = current.withLock { $0 }
        switch (path, arguments.count) {
        case ("/jackwave/stop", 0):
            requestStop()
            lines.post("OSC: stop")
        case ("/jackwave/split", 0):
            split(target)
        case ("/jackwave/status", 0):
            return ("/jackwave/status", status(target))
        case ("/jackwave/marker", 0...1):
            if arguments.count == 1, case .other = arguments[0] { return malformed(path, arguments) }
            guard let run = target?.run, run.records else { return ignored(path, "nothing is being recorded") }
            let label = arguments.first.flatMap { if case .string(let text) = $0 { text } else { nil } }
            let number = run.dropMarker(label: label)
            return ("/jackwave/marker", [.int(Int64(number))])
        case ("/jackwave/tone/frequency", 1):
            guard let hz = arguments[0].number else { return malformed(path, arguments) }
            guard let target, target.playsTone else { return ignored(path, "no tone plays") }
            let nyquist = Double(target.sampleRate) / 2
            guard hz > 0 && hz < nyquist else { return ignored(path, "\(hz) Hz is not between 0 and \(nyquist) Hz") }
            // A lone value the callback polls (relaxed), as the keys set it.
            target.signals.toneFrequencyBits.store(hz.bitPattern, ordering: .relaxed)
            lines.post(String(printf: "OSC: tone %.2f Hz", hz))
        case ("/jackwave/tone/volume", 1):
            guard let db = arguments[0].number else { return malformed(path, arguments) }
            guard let target, target.playsTone else { return ignored(path, "no tone plays") }
            guard db <= 0 && db.isFinite else { return ignored(path, "\(db) dB is above 0 dBFS") }
            target.signals.toneAmplitudeBits.store(Float(pow(10, db / 20)).bitPattern, ordering: .relaxed)
            lines.post(String(printf: "OSC: tone at %.1f dBFS", db))
        case ("/jackwave/tone/pause", 0...1):
            guard let target, target.playsTone else { return ignored(path, "no tone plays") }
            let paused: Bool
            if arguments.isEmpty {
                paused = !target.signals.tonePaused.load(ordering: .relaxed)
            } else if let value = arguments[0].number {
                paused = value != 0
            } else {
                return malformed(path, arguments)
            }
            target.signals.tonePaused.store(paused, ordering: .relaxed)
            lines.post(paused ? "OSC: tone paused" : "OSC: tone resumed")
        default:
            return malformed(path, arguments)
        }
        return nil
    }

    /// Cuts the recording at the frame the callback has reached now: the writer starts the
    /// next numbered file exactly there, whenever it gets to it.
    private func split(_ target: RemoteTarget?) {
        guard let target, let files = target.files else {
            lines.post("OSC: /jackwave/split: nothing is being recorded (ignored)")
            return
        }
        let frame = Int64(target.signals.streamFrames.load(ordering: .relaxed))
        let spec = files.spec
        let fileFrame = spec.resamples ? (frame * Int64(spec.fileRate) + Int64(spec.inputRate / 2)) / Int64(spec.inputRate) : frame
        files.cutRequest.store(fileFrame, ordering: .relaxed)
        lines.post(String(printf: "OSC: split at %.3f s (frame %lld)", Double(frame) / Double(target.sampleRate), frame))
    }

    /// state, file, frames written, xruns, dropped frames.
    private func status(_ target: RemoteTarget?) -> [OscArgument] {
        guard let target else { return [.string("waiting"), .string(""), .int(0), .int(0), .int(0)] }
        let state = target.files != nil ? "recording" : target.playsTone ? "playing" : "monitoring"
        let frames = target.writer?.framesWritten.load(ordering: .relaxed) ?? target.signals.streamFrames.load(ordering: .relaxed)
        return [.string(state), .string(target.files?.paths.last ?? ""), .int(Int64(frames)),
                .int(Int64(target.signals.xruns.load(ordering: .relaxed))),
                .int(Int64(target.signals.droppedFrames.load(ordering: .relaxed)))]
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
