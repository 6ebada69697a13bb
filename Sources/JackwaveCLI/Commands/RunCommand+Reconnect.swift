import FoundationEssentials
import Glibc
import JackwaveHost
import JackwaveSoundFiles

/// What a new connection takes over from the ones before it (`--reconnect`).
struct Continuation {
    /// The number of its first file.
    let nextPiece: Int
    /// The run's input count, kept whatever the patterns match now.
    let channels: Int
    /// Frames received so far (a `--duration` counts them).
    let receivedFrames: Int64
}

extension RunCommand {
    /// How often a lost server is looked for: twice a second, a modest load on a machine
    /// waiting for its server, and a gap at most half a second longer than it must be.
    static let reconnectPoll: UInt32 = 500_000
    /// How long a new connection waits for its `--port` patterns to match as many ports as
    /// the first did (the sources restart with the server, a moment after it).
    static let sourceWait = 10.0

    /// `--reconnect`: runs connection after connection while the server goes and comes back.
    /// Each connection is a new client, new ports, new engine and writer (everything the
    /// callback touches allocated before its `jack_activate`), recording into the next
    /// numbered file; the observer (events, hook, remote control) and the totals go on
    /// across them. A connection's run lives only for its turn of the loop, so its ring is
    /// unmapped before the next is built (the soak's RSS stays flat).
    static func runReconnecting(_ o: RunOptions, client firstClient: JackClient, recordFormat: SoundFormat?,
                                remote: RemoteControl?) -> Int32 {
        var client = firstClient
        var observer: RunObserver?
        var continuation: Continuation?
        // What the previous connection left: its totals and the wall time of its last frame.
        var previous: (totals: RunTotals, lostAt: WallClockTime, rate: Int)?
        let sourceCount = o.manual || o.portPatterns.isEmpty ? 0
            : (try? PortPatterns.resolve(o.portPatterns, among: client.portNames(direction: .output), what: "source"))?.count ?? 0
        while true {
            let run: JackRun, frontEnd: TerminalFrontEnd
            switch prepare(o, client: client, recordFormat: recordFormat, continuing: continuation) {
            case let .refused(code):
                // A connection after the first cannot be bad usage any more: a runtime failure.
                let exit = continuation == nil ? code : 1
                if let previous { finishObserver(observer, code: exit, frame: previous.totals.receivedFrames) }
                return close(client, code: exit)
            case let .ready(made, madeFrontEnd):
                (run, frontEnd) = (made, madeFrontEnd)
            }
            if continuation == nil {
                let opened = openObserver(o, remote: remote)
                guard opened.ok else { return withExtendedLifetime(run) { close(client, code: 1) } }
                observer = opened.observer
            }
            run.observer = observer
            if let previous {
                observer?.frameBase.store(previous.totals.receivedFrames, ordering: .relaxed)
                observer?.resetCounters()
                run.carried = previous.totals
                run.onStart = { [unowned run, unowned frontEnd] start in
                    let gap = ServerGap(from: previous.lostAt, to: start, sampleRate: previous.rate)
                    run.carried?.gaps.append(gap)
                    observer?.events?.emit(.serverBack, frame: previous.totals.receivedFrames,
                                           [("gap_seconds", .double(gap.seconds)), ("frames_lost", .int(gap.framesLost)),
                                            ("lost_by", .string("wall_time"))])
                    frontEnd.say(String(printf: "the server is back after %.3f s (about %lld frames lost, by wall time × rate); recording into ",
                                        gap.seconds, gap.framesLost) + (run.recordingPath ?? "no file"))
                }
            }
            let code = run.run(frontEnd, onActivated: SignalTrap.receiveOnMainThread)
            observer?.remote?.attach(nil)
            guard run.awaitsReconnect else {
                finishObserver(observer, code: code, run: run)
                return withExtendedLifetime(run) { close(client, code: code) }
            }
            let totals = run.totals()
            previous = (totals, run.endTime ?? WallClockTime.now(), run.sampleRate)
            observer?.events?.emit(.serverLost, frame: totals.receivedFrames, [("reason", .string("the JACK server went away"))])
            Console.say("waiting for a JACK server to come back (\(totals.paths.last ?? "the file") holds everything received; Ctrl-C stops)")
            // The old client's threads have stopped with their server; closing frees it.
            _ = withExtendedLifetime(run) { client.close(timeout: 2) }

            guard let next = waitForServer(o, sourceCount: sourceCount, remote: remote) else {
                Console.say(run.summary() + ", stopped while waiting for the server")
                finishObserver(observer, code: 0, run: run)
                return 0
            }
            client = next
            continuation = Continuation(nextPiece: totals.paths.count + 1, channels: run.engine.configuration.inputs,
                                        receivedFrames: totals.receivedFrames)
        }
    }

    /// Polls for the server every `reconnectPoll` until a client opens, then waits (at most
    /// `sourceWait`) until the `--port` patterns match `sourceCount` ports again. Returns
    /// the client with SIGINT and SIGTERM held on this thread (its threads must not take
    /// them), or nil once the user interrupts. OSC is answered meanwhile (`remote.pump`):
    /// its inbox is emptied while jackwave waits too.
    static func waitForServer(_ o: RunOptions, sourceCount: Int, remote: RemoteControl? = nil) -> JackClient? {
        let handled = SignalTrap.count
        let answerRemote = {
            remote?.pump()
            for line in remote?.lines.drain() ?? [] { Console.say(line) }
        }
        while SignalTrap.count == handled {
            usleep(reconnectPoll)
            answerRemote()
            SignalTrap.holdOnMainThread()
            guard let client = try? JackClient(name: o.clientName, server: o.server) else {
                SignalTrap.receiveOnMainThread()
                continue
            }
            let deadline = Date().addingTimeInterval(sourceWait)
            while sourceCount > 0 && !SignalTrap.isPending && Date() < deadline
                    && ((try? PortPatterns.resolve(o.portPatterns, among: client.portNames(direction: .output), what: "source"))?.count ?? 0) < sourceCount {
                usleep(50_000)
                answerRemote()
            }
            if SignalTrap.isPending {
                _ = client.close(timeout: 2)
                SignalTrap.receiveOnMainThread()
                return nil
            }
            return client
        }
        return nil
    }
}
