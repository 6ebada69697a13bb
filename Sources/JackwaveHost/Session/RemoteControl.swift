import FoundationEssentials
import Glibc
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveUnattended
import Synchronization
import JackwaveVocabulary

/// `--osc`: what each OSC message does, on the main thread.
///
/// The listener thread (`OscListener`) only receives, checks the sender and decodes; the
/// main loop calls `pump` on every pass, in every state of the run (a connection running,
/// none yet, `--reconnect` waiting for a server): it takes the inbox's messages, acts on each
/// (`OscCommand` checks them), and replies, rate-limited (`ReplyLimiter`), to the sender,
/// which the listener admitted. Replies use paths that are not requests
/// (`/jackwave/reply/…`), so two jackwaves that a forged sender points at each other stop
/// after one message.
///
/// It acts through the run's `RunControl`, as the keyboard does (the atomics the callback
/// polls, the files' cut request); a stop is an interrupt, as Ctrl-C is (`requestStop`), and
/// only the first: a remote can never make jackwave skip draining its buffer. Each line goes through `RepeatedLines`, so a flood
/// of one kind costs two lines per interval.
public final class RemoteControl: @unchecked Sendable {
    /// Lines for stderr, moved to the run's lines on each pass of the main loop.
    public let lines = MessageQueue()
    /// The run, whichever connection runs now (none before frame 0 and while `--reconnect`
    /// waits for a server). Read by the listener thread too, for its stamp.
    private let control: RunControl
    /// Stops the run as Ctrl-C does (the first fades a tone, the second stops at once).
    private let requestStop: @Sendable () -> Void
    /// Where messages come from (`listen`); nil until then (the unit tests call `handle`).
    public private(set) var listener: OscListener?
    private var repeats = RepeatedLines()
    private var limiter = ReplyLimiter()
    private var stopAsked = false
    /// The counters already said (refused datagrams are said by sender as they come).
    private var said = (malformed: 0, overflowed: 0, withheld: 0)
    private var withheldReplies = 0

    public init(control: RunControl, requestStop: @escaping @Sendable () -> Void) {
        self.control = control
        self.requestStop = requestStop
    }

    /// Starts listening (`OscListener`): the first thing `--osc` does, before any file.
    public func listen(on binding: OscBinding, allowing allowed: OscAllowList) throws(OscListenerError) {
        let control = self.control
        listener = try OscListener(binding: binding, allowed: allowed, stamp: { control.streamFrame })
    }

    /// One pass: every message waiting, acted on and answered; what the listener counted.
    /// Main thread, on every pass of whatever loop runs (the run's, the wait for a server).
    public func pump() {
        guard let listener else { return }
        let now = Self.monotonicSeconds()
        for message in listener.inbox.drain() {
            guard let reply = handle(message.path, message.arguments, streamFrame: message.streamFrame) else { continue }
            if limiter.allows(now: now) { listener.send(reply, to: message.sender) } else { withheldReplies += 1 }
        }
        for (sender, count) in listener.takeRefusedSenders() {
            say("OSC: refused \(count) datagram\(count == 1 ? "" : "s") from \(sender): only this machine and \(setting: .oscAllow) networks may send",
                kind: "OSC: refused senders", now: now)
        }
        let counts = (malformed: listener.malformed, overflowed: listener.inbox.overflowed.load(ordering: .relaxed),
                      withheld: withheldReplies)
        if counts.malformed > said.malformed {
            say("OSC: \(counts.malformed - said.malformed) malformed datagram(s) (ignored)", kind: "OSC: malformed datagrams", now: now)
        }
        if counts.overflowed > said.overflowed {
            say("OSC: \(counts.overflowed - said.overflowed) message(s) dropped: more than \(listener.inbox.capacity) were waiting",
                kind: "OSC: queue full", now: now)
        }
        if counts.withheld > said.withheld {
            say("OSC: \(counts.withheld - said.withheld) repl\(counts.withheld - said.withheld == 1 ? "y" : "ies") not sent (at most \(Int(limiter.perSecond)) a second)",
                kind: "OSC: replies withheld", now: now)
        }
        said = counts
        for line in repeats.flush(now: now) { lines.post(line) }
    }

    /// At the end: the last messages, what repeats were only counted, and the totals of what
    /// was refused, if anything was.
    public func finish() {
        pump()
        for line in repeats.flush(now: nil) { lines.post(line) }
        guard let listener, listener.refused + said.malformed + said.overflowed + said.withheld > 0 else { return }
        lines.post("OSC: in all \(listener.refused) datagram(s) refused from senders not allowed, \(said.malformed) malformed, "
                   + "\(said.overflowed) message(s) over the queue's bound, \(said.withheld) repl(ies) not sent")
    }

    /// Does what `path` asks; returns the reply for the sender, if the message has one.
    /// `streamFrame`: where the callback was when the message arrived (a marker's, a split's frame).
    public func handle(_ path: String, _ arguments: [OscArgument], streamFrame: Int64? = nil) -> OscOutgoing? {
        let command: OscCommand
        switch OscCommand.parse(path, arguments) {
        case let .success(parsed): command = parsed
        case let .failure(refusal):
            say(Phrase(verbatim: refusal.line), kind: refusal.kind)
            return nil
        }
        switch command {
        case .stop:
            guard !stopAsked else {
                say("OSC: stop already asked for (a remote stop always drains the buffer; Ctrl-C twice stops at once)", kind: "OSC: stops repeated")
                return nil
            }
            stopAsked = true
            requestStop()
            say("OSC: stop", kind: path)
        case .split:
            let line = control.split(atStreamFrame: streamFrame, atLeast: FileChoice.minimumSplitSeconds)
            say(Phrase(verbatim: line), kind: line.hasSuffix("(ignored)") ? "OSC: splits ignored" : "/jackwave/split")
        case .status:
            return OscOutgoing(path: OscCommand.replyPrefix + "status", arguments: status())
        case let .marker(label):
            guard control.records, control.isRunning else { return ignored(path, "nothing is being recorded") }
            guard let number = control.dropMarker(label: label, atStreamFrame: streamFrame) else { return nil }
            return OscOutgoing(path: OscCommand.replyPrefix + "marker", arguments: [.int(Int64(number))])
        case let .toneFrequency(hz):
            guard control.playsTone, let rate = control.sampleRate else { return ignored(path, "no tone plays") }
            let nyquist = Double(rate) / 2
            guard hz < nyquist else { return ignored(path, "\(hz) Hz is not between 0 and \(nyquist.plainText) Hz") }
            control.setTone(frequency: hz)
            say(Phrase(printf: "OSC: tone %.2f Hz", hz), kind: path)
        case let .toneVolume(db):
            guard control.playsTone else { return ignored(path, "no tone plays") }
            control.setTone(amplitude: Float(pow(10, db / 20)))
            say(Phrase(printf: "OSC: tone at %.1f dBFS", db), kind: path)
        case let .tonePause(asked):
            guard control.playsTone else { return ignored(path, "no tone plays") }
            let paused = asked ?? !control.playingTone.paused
            control.setTone(paused: paused)
            say(paused ? "OSC: tone paused" : "OSC: tone resumed", kind: path)
        }
        return nil
    }

    /// state, file, frames written, xruns, dropped frames, take (0 when not armed), seconds
    /// of dead air under way (0 when none), clips in the last clipping second (0 when none
    /// lately), MIDI events recorded, MIDI events lost, the last MMC command ("" for none),
    /// the LTC input's timecode and its state ("" for none).
    private func status() -> [OscArgument] {
        let s = control.status()
        return [.string(s.state), .string(s.file), .int(s.frames), .int(Int64(s.xruns)), .int(Int64(s.dropped)),
                .int(Int64(s.take)), .float(s.deadAirSeconds), .int(Int64(s.clips)),
                .int(Int64(s.midiEvents)), .int(Int64(s.midiLost)), .string(s.lastCommand),
                .string(s.timecode), .string(s.timecodeState)]
    }

    private func ignored(_ path: String, _ why: String) -> OscOutgoing? {
        let refusal = OscCommand.ignored(path, why)
        say(Phrase(verbatim: refusal.line), kind: refusal.kind)
        return nil
    }

    /// A line through the repeat filter.
    private func say(_ line: Phrase, kind: String, now: Double? = nil) {
        for out in repeats.post(line, kind: kind, now: now ?? Self.monotonicSeconds()) { lines.post(out) }
    }

    /// `clock_gettime(CLOCK_MONOTONIC)` in seconds.
    static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
