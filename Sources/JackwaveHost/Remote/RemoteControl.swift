import FoundationEssentials
import Glibc
import JackwaveSoundFiles
import Synchronization

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
/// It never touches the realtime callback's state except through the atomics the
/// keyboard and the main loop use (`EngineSignals`) and the writer's cut request; a stop
/// is an interrupt, as Ctrl-C is (`requestStop`), and only the first: a remote can never
/// make jackwave skip draining its buffer. Each line goes through `RepeatedLines`, so a flood
/// of one kind costs two lines per interval.
public final class RemoteControl: @unchecked Sendable {
    /// Lines for stderr, moved to the run's lines on each pass of the main loop.
    public let lines = MessageQueue()
    /// The connection running now, nil while none is (before frame 0 and while
    /// `--reconnect` waits for a server). Read by the listener thread for its stamp.
    private let current = TargetSlot()
    /// Stops the run as Ctrl-C does (the first fades a tone, the second stops at once).
    private let requestStop: @Sendable () -> Void
    /// Where messages come from (`listen`); nil until then (the unit tests call `handle`).
    public private(set) var listener: OscListener?
    private var repeats = RepeatedLines()
    private var limiter = ReplyLimiter()
    private var stopAsked = false
    /// The stream frame of the last cut asked for (0: the file's start), for the shortest piece.
    private var lastCut: Int64 = 0
    /// The counters already said (refused datagrams are said by sender as they come).
    private var said = (malformed: 0, overflowed: 0, withheld: 0)
    private var withheldReplies = 0

    public init(requestStop: @escaping @Sendable () -> Void) {
        self.requestStop = requestStop
    }

    /// Starts listening (`OscListener`): the first thing `--osc` does, before any file.
    public func listen(on binding: OscBinding, allowing allowed: OscAllowList) throws(OscListenerError) {
        let current = self.current
        listener = try OscListener(binding: binding, allowed: allowed, stamp: {
            // A lone counter (relaxed), as the keys read it.
            current.target.withLock { $0.map { Int64($0.signals.streamFrames.load(ordering: .relaxed)) } }
        })
    }

    /// Points remote control at a connection (main thread, before it runs), or at none.
    public func attach(_ target: RemoteTarget?) {
        current.target.withLock { $0 = target }
        lastCut = 0
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
            say("OSC: refused \(count) datagram\(count == 1 ? "" : "s") from \(sender): only this machine and --osc-allow networks may send",
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
            say(refusal.line, kind: refusal.kind)
            return nil
        }
        let target = current.target.withLock { $0 }
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
            split(target, at: streamFrame)
        case .status:
            return OscOutgoing(path: OscCommand.replyPrefix + "status", arguments: status(target))
        case let .marker(label):
            guard let run = target?.run, run.records else { return ignored(path, "nothing is being recorded") }
            guard let number = run.dropMarker(label: label, atFrame: streamFrame) else { return nil }
            return OscOutgoing(path: OscCommand.replyPrefix + "marker", arguments: [.int(Int64(number))])
        case let .toneFrequency(hz):
            guard let target, target.playsTone else { return ignored(path, "no tone plays") }
            let nyquist = Double(target.sampleRate) / 2
            guard hz < nyquist else { return ignored(path, "\(hz) Hz is not between 0 and \(nyquist.plainText) Hz") }
            // A lone value the callback polls (relaxed), as the keys set it.
            target.signals.toneFrequencyBits.store(hz.bitPattern, ordering: .relaxed)
            say(String(printf: "OSC: tone %.2f Hz", hz), kind: path)
        case let .toneVolume(db):
            guard let target, target.playsTone else { return ignored(path, "no tone plays") }
            target.signals.toneAmplitudeBits.store(Float(pow(10, db / 20)).bitPattern, ordering: .relaxed)
            say(String(printf: "OSC: tone at %.1f dBFS", db), kind: path)
        case let .tonePause(asked):
            guard let target, target.playsTone else { return ignored(path, "no tone plays") }
            let paused = asked ?? !target.signals.tonePaused.load(ordering: .relaxed)
            target.signals.tonePaused.store(paused, ordering: .relaxed)
            say(paused ? "OSC: tone paused" : "OSC: tone resumed", kind: path)
        }
        return nil
    }

    /// Cuts the recording at the frame the callback had reached when the message came: the
    /// writer starts the next numbered file exactly there, whenever it gets to it. At least
    /// `FileChoice.minimumSplitSeconds` after the last cut (a flood made a file per writer
    /// pass, and ran the hook for each).
    private func split(_ target: RemoteTarget?, at given: Int64?) {
        guard let target, let files = target.files else {
            _ = ignored("/jackwave/split", "nothing is being recorded")
            return
        }
        let frame = given ?? Int64(target.signals.streamFrames.load(ordering: .relaxed))
        let least = Int64(FileChoice.minimumSplitSeconds * Double(target.sampleRate))
        guard frame - lastCut >= least else {
            _ = ignored("/jackwave/split", String(printf: "the last cut was %.3f s before; pieces are at least %g s long",
                                                  Double(frame - lastCut) / Double(target.sampleRate), FileChoice.minimumSplitSeconds))
            return
        }
        lastCut = frame
        let spec = files.spec
        let fileFrame = spec.resamples ? (frame * Int64(spec.fileRate) + Int64(spec.inputRate / 2)) / Int64(spec.inputRate) : frame
        files.cutRequest.store(fileFrame, ordering: .relaxed)
        say(String(printf: "OSC: split at %.3f s (frame %lld)", Double(frame) / Double(target.sampleRate), frame), kind: "/jackwave/split")
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

    private func ignored(_ path: String, _ why: String) -> OscOutgoing? {
        let refusal = OscCommand.ignored(path, why)
        say(refusal.line, kind: refusal.kind)
        return nil
    }

    /// A line through the repeat filter.
    private func say(_ line: String, kind: String, now: Double? = nil) {
        for out in repeats.post(line, kind: kind, now: now ?? Self.monotonicSeconds()) { lines.post(out) }
    }

    /// `clock_gettime(CLOCK_MONOTONIC)` in seconds.
    static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// The connection remote control points at, shared with the listener thread's stamp.
private final class TargetSlot: Sendable {
    let target = Mutex<RemoteTarget?>(nil)
}
