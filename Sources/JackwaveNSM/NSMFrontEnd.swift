import Glibc
import JackwaveHost
import JackwaveRunSupport
import JackwaveVocabulary

/// A run's front end inside a session: the terminal's (`inner`) for its lines and
/// interrupts, with the session manager told and answered on every pass of the main loop.
///
/// The open is answered on the first pass, once the client, its ports and its first file
/// exist; a run that ends before that answers it with its error (`finish`). A save is
/// answered once the writer has brought the open file up to date (`RunControl.save`). Every
/// line goes to the manager as a status message too (`:message:`), errors as the most
/// important. A second open (`:switch:`) is kept in `switchTo` and ends the run as an
/// interrupt does, files finalized; whoever runs jackwave then opens the next. A manager that
/// dies (`NSMManagerWatch`: a new parent process, or another socket on its port, checked
/// before any request is acted on) is said once, a line and a `session_manager_lost` event;
/// the recording goes on as it is, and from then on nothing from the manager's address is
/// obeyed (each refusal said, at most one line a second) or sent to it.
public final class NSMFrontEnd: RunFrontEnd {
    /// The main loop's longest sleep here: a save is answered within it and the writer's
    /// refresh, inside the 100 ms a manager's user should wait at most.
    static let longestPace: UInt32 = 40_000
    /// How long a save waits for the writer.
    static let saveTimeout = 0.05
    /// How often the manager is told the file being written and its length, in seconds.
    static let progressInterval = 10.0
    /// How often the manager's socket is looked at while no request comes, in seconds.
    static let socketInterval = 1.0
    /// Refusals said at most this often (the others counted into the next line), in seconds.
    static let refusalInterval = 1.0

    private let inner: any RunFrontEnd
    private let client: NSMClient
    private let render: (Phrase) -> String
    /// Ends the run as an interrupt does (the first of them: the files are drained).
    private let requestStop: () -> Void
    /// The open that asked jackwave to switch to another session, once one has.
    public private(set) var switchTo: NSMOpen?
    private var openAnswered = false
    private var lastError: String?
    /// Whether the manager is still there; once gone, for good.
    private let watch: NSMManagerWatch
    /// The loss's event, until a connection runs to write it.
    private var lossEvent: [(String, EventLog.Value)]?
    /// When the manager's socket was last looked at, and a refusal last said (monotonic
    /// seconds); the refusals not said since.
    private var socketCheckedAt = 0.0
    private var refusalSaidAt = -Double.infinity
    private var refusalsUnsaid = 0
    /// When the file and its length were last told (monotonic seconds).
    private var progressToldAt = 0.0

    /// `render` spells a line as the terminal does (the CLI's option names); `requestStop`
    /// ends the run for a switch; `watch` says whether the manager is still there.
    public init(_ inner: any RunFrontEnd, client: NSMClient, watch: NSMManagerWatch, render: @escaping (Phrase) -> String,
                requestStop: @escaping () -> Void) {
        self.inner = inner
        self.client = client
        self.watch = watch
        self.render = render
        self.requestStop = requestStop
    }

    public func say(_ line: Phrase) {
        inner.say(line)
        if watch.lost == nil { client.message(priority: 1, render(line)) }
    }

    public func error(_ line: Phrase) {
        inner.error(line)
        let text = render(line)
        lastError = text
        if watch.lost == nil { client.message(priority: 3, text) }
    }

    public var interrupts: Int { inner.interrupts }
    public var interruptPending: Bool { inner.interruptPending }
    public func holdInterrupts() { inner.holdInterrupts() }
    public func receiveInterrupts() { inner.receiveInterrupts() }
    public var pace: UInt32 { min(inner.pace, Self.longestPace) }

    public func makeDisplay(names: [String], sampleRate: Int, loudnessTarget: Double?,
                            connections: @escaping () -> [[String]]) -> LevelDisplay? {
        inner.makeDisplay(names: names, sampleRate: sampleRate, loudnessTarget: loudnessTarget, connections: connections)
    }

    public func tick(_ control: RunControl) {
        inner.tick(control)
        let now = Self.monotonicSeconds()
        notice(watch.check(sockets: now - socketCheckedAt >= Self.socketInterval), control)
        if now - socketCheckedAt >= Self.socketInterval { socketCheckedAt = now }
        if let fields = lossEvent, control.emit(.sessionManagerLost, fields) { lossEvent = nil }
        if !openAnswered {
            openAnswered = true
            let file = control.status().file
            if watch.lost == nil {
                client.reply(to: "/nsm/client/open", file.isEmpty ? "open" : "recording into \(file.split(separator: "/").last ?? "")")
            }
        }
        if watch.lost == nil { tellProgress(control) }
        let requests = client.requests()
        // Before acting on any: is the address they came from still the manager's?
        if !requests.isEmpty { notice(watch.check(sockets: true), control) }
        for request in requests {
            guard watch.lost == nil else {
                refuse(request, control, now: now)
                continue
            }
            switch request {
            case .save:
                let result = control.save(timeout: Self.saveTimeout)
                if result.saved { client.reply(to: "/nsm/client/save", result.line) } else { client.fail("/nsm/client/save", .general, result.line) }
            case let .open(next):
                guard switchTo == nil else {
                    client.fail("/nsm/client/open", .notNow, "jackwave is already switching to \(switchTo?.path ?? "")")
                    continue
                }
                switchTo = next
                inner.say("switching to \(next.path): finishing this session's files")
                requestStop()
            case .welcomed, .refused, .sessionIsLoaded:
                break
            }
        }
    }

    public func audioStopped() { inner.audioStopped() }

    /// The manager found gone: said once, and its event written once a connection runs.
    private func notice(_ loss: NSMManagerWatch.Loss?, _ control: RunControl) {
        guard let loss else { return }
        let address = "\(client.manager)"
        let why: String
        var fields: [(String, EventLog.Value)] = [("address", .string(address))]
        switch loss {
        case let .parentEnded(pid):
            why = "process \(pid) ended"
            fields += [("reason", .string("parent")), ("pid", .int(Int64(pid)))]
        case .socketChanged:
            why = "its socket on port \(client.manager.port) is not the one jackwave announced itself to"
            fields.append(("reason", .string("socket")))
        }
        inner.say("the session manager is gone (\(why)): the recording goes on, and nothing more from \(address) is obeyed; end it with SIGTERM or Ctrl-C")
        lossEvent = fields
        if control.emit(.sessionManagerLost, fields) { lossEvent = nil }
    }

    /// A request from the gone manager's address: not acted on, nor answered (whoever has
    /// the port now is not the manager); said, at most a line a second, the rest counted.
    private func refuse(_ request: NSMRequest, _ control: RunControl, now: Double) {
        var fields: [(String, EventLog.Value)] = [("from", .string("\(client.manager)"))]
        let what: String
        switch request {
        case let .open(open):
            what = "/nsm/client/open (\(open.path)): nothing is opened or made there"
            fields += [("request", .string("/nsm/client/open")), ("folder", .string(open.path))]
        case .save:
            what = "/nsm/client/save"
            fields.append(("request", .string("/nsm/client/save")))
        case .sessionIsLoaded:
            what = "/nsm/client/session_is_loaded"
            fields.append(("request", .string("/nsm/client/session_is_loaded")))
        case .welcomed, .refused:
            what = "a reply to the announce"
            fields.append(("request", .string("/reply")))
        }
        guard now - refusalSaidAt >= Self.refusalInterval else {
            refusalsUnsaid += 1
            return
        }
        let more = refusalsUnsaid > 0 ? " (and \(refusalsUnsaid) more refused since the last line)" : ""
        inner.say("refused \(what) from \(client.manager): the session manager is gone\(more)")
        control.emit(.sessionRequestRefused, fields)
        refusalSaidAt = now
        refusalsUnsaid = 0
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Every `progressInterval`, the file being written and how much it holds, as the
    /// least important status message (the manager shows it beside the client).
    private func tellProgress(_ control: RunControl) {
        let seconds = Self.monotonicSeconds()
        guard seconds - progressToldAt >= Self.progressInterval, let rate = control.sampleRate, rate > 0 else { return }
        progressToldAt = seconds
        let status = control.status()
        guard !status.file.isEmpty else { return }
        let name = status.file.split(separator: "/").last.map(String.init) ?? status.file
        let length = Int(status.frames / Int64(rate))
        let clock = "\(length / 60):" + (length % 60 < 10 ? "0" : "") + "\(length % 60)"
        client.message(priority: 0, "\(status.state): \(name), \(clock) recorded")
    }

    /// After the run: an open never answered (the run failed before its first pass) gets
    /// the run's error.
    public func finish(exitCode: Int32) {
        guard !openAnswered else { return }
        openAnswered = true
        guard watch.lost == nil else { return }
        client.fail("/nsm/client/open", exitCode == 2 ? .badProject : .general, lastError ?? "jackwave ended (exit \(exitCode))")
    }
}
