import Glibc
import JackwaveHost
import JackwaveVocabulary

/// A run's front end inside a session: the terminal's (`inner`) for its lines and
/// interrupts, with the session manager told and answered on every pass of the main loop.
///
/// The open is answered on the first pass, once the client, its ports and its first file
/// exist; a run that ends before that answers it with its error (`finish`). A save is
/// answered once the writer has brought the open file up to date (`RunControl.save`). Every
/// line goes to the manager as a status message too (`:message:`), errors as the most
/// important. A second open (`:switch:`) is kept in `switchTo` and ends the run as an
/// interrupt does, files finalized; whoever runs jackwave then opens the next. A manager that dies is noticed as its child notices it, by a new parent
/// process (managers start their clients themselves), and said once; the recording goes on.
public final class NSMFrontEnd: RunFrontEnd {
    /// The main loop's longest sleep here: a save is answered within it and the writer's
    /// refresh, inside the 100 ms a manager's user should wait at most.
    static let longestPace: UInt32 = 40_000
    /// How long a save waits for the writer.
    static let saveTimeout = 0.05
    /// How often the manager is told the file being written and its length, in seconds.
    static let progressInterval = 10.0

    private let inner: any RunFrontEnd
    private let client: NSMClient
    private let render: (Phrase) -> String
    /// Ends the run as an interrupt does (the first of them: the files are drained).
    private let requestStop: () -> Void
    /// The open that asked jackwave to switch to another session, once one has.
    public private(set) var switchTo: NSMOpen?
    private var openAnswered = false
    private var lastError: String?
    /// The process that started jackwave (the manager), 1 if that was init already.
    private let manager = getppid()
    private var managerGone = false
    /// When the file and its length were last told (monotonic seconds).
    private var progressToldAt = 0.0

    /// `render` spells a line as the terminal does (the CLI's option names); `requestStop`
    /// ends the run for a switch.
    public init(_ inner: any RunFrontEnd, client: NSMClient, render: @escaping (Phrase) -> String,
                requestStop: @escaping () -> Void) {
        self.inner = inner
        self.client = client
        self.render = render
        self.requestStop = requestStop
    }

    public func say(_ line: Phrase) {
        inner.say(line)
        client.message(priority: 1, render(line))
    }

    public func error(_ line: Phrase) {
        inner.error(line)
        let text = render(line)
        lastError = text
        client.message(priority: 3, text)
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
        if !managerGone && manager != 1 && getppid() != manager {
            managerGone = true
            inner.say("the session manager is gone (process \(manager) ended): the recording goes on; end it with SIGTERM or Ctrl-C")
        }
        if !openAnswered {
            openAnswered = true
            let file = control.status().file
            client.reply(to: "/nsm/client/open", file.isEmpty ? "open" : "recording into \(file.split(separator: "/").last ?? "")")
        }
        tellProgress(control)
        for request in client.requests() {
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

    /// Every `progressInterval`, the file being written and how much it holds, as the
    /// least important status message (the manager shows it beside the client).
    private func tellProgress(_ control: RunControl) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let seconds = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
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
        client.fail("/nsm/client/open", exitCode == 2 ? .badProject : .general, lastError ?? "jackwave ended (exit \(exitCode))")
    }
}
