import Dispatch
import FoundationEssentials
import Glibc
import JackwaveEngine
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveStreaming
import JackwaveUnattended
import JackwaveVocabulary

/// One jackwave run (`--record`, `--tone`, or metering), from its options to its summary:
/// the one place where a run is built and its connections come and go.
///
/// Order is the point of this type:
/// 1. `init`: every check that needs only the options and the disk (usage errors, exit 2,
///    nothing touched), then remote control's socket (a port in use is exit 1, before any file).
/// 2. `run`: the client and its ports, every check that needs the server (usage errors),
///    then the run's outputs (`SessionParts`: files, level stream, events), then turn after
///    turn (`ClientRun`): with `--reconnect`, a server that goes away ends a turn quietly,
///    the session waits for it to come back and starts the next turn, its files numbered
///    on, its timeline, levels, loudness, takes and totals carried across.
/// 3. The end: the open take ended, the analysis and the file finisher (cues, pictures,
///    hooks) allowed to finish, then the lines and the summary, and the exit code.
public final class Session {
    let options: RunOptions
    let frontEnd: RunFrontEnd
    /// The environment as the session began, the stream's password in it; the process has
    /// the password no more (`init`: not in its environment, nor in the memory
    /// `/proc/PID/environ` shows), so that no hook, peer or child ever sees it.
    private let environment: [String: String]
    private let drawPicture: PictureDrawing?
    /// What the keys and OSC act on, whichever turn runs.
    public let control: RunControl
    /// `--osc`: listening from `init` on, before any file.
    let remote: RemoteControl?
    let recordFormat: SoundFormat?
    /// The turn running now, for the meter's connection names.
    private var current: ClientRun?

    /// Checks the options against the disk and starts remote control; nothing else is
    /// touched. `requestStop` is what a remote `/jackwave/stop` does (an interrupt, as Ctrl-C);
    /// `drawPicture` draws `--plot`'s pictures (the CLI's, through JackwavePlot).
    public init(options o: RunOptions, frontEnd: RunFrontEnd, requestStop: @escaping @Sendable () -> Void,
                drawPicture: PictureDrawing? = nil) throws(SessionError) {
        options = o
        self.frontEnd = frontEnd
        self.drawPicture = drawPicture
        if o.recording.plotPath != nil && drawPicture == nil { throw .usage("\(setting: .plot): no way to draw pictures was given to this run") }
        environment = ProcessInfo.processInfo.environment
        StreamPassword.leaveProcess(urlPassword: o.station.stream?.passwordInURL != nil)
        do throws(UsageError) {
            recordFormat = try o.checkOutputs()
            for warning in try o.checkStream(environment: environment) { frontEnd.say(warning) }
        } catch {
            throw .usage(error.message)
        }
        control = RunControl(tone: o.tone.frequency.map {
            ToneSettings(frequency: $0, amplitude: o.tone.volume, fadeSeconds: o.tone.fadeMilliseconds / 1000)
        }, records: o.records)
        if let binding = o.remote.osc {
            let remote = RemoteControl(control: control, requestStop: requestStop)
            do throws(OscListenerError) {
                try remote.listen(on: binding, allowing: OscAllowList(o.remote.allowed))
            } catch {
                throw .runtime("\(setting: .osc): \(error.message)")
            }
            for network in o.remote.allowed where network.isEveryone {
                frontEnd.say("OSC: \(setting: .oscAllow) \(network) admits every \(network.family == AF_INET ? "IPv4" : "IPv6") sender that reaches \(binding)")
            }
            if !binding.isLoopbackOnly && o.remote.allowed.isEmpty {
                frontEnd.say("OSC on \(binding) admits only this machine's own senders: \(setting: .oscAllow) CIDR admits others")
            }
            self.remote = remote
        } else {
            remote = nil
        }
    }

    /// Runs to the end; returns the exit code (0 done, 1 runtime failure, 2 bad usage).
    public func run() -> Int32 {
        JackClient.silenceLibraryMessages()
        var client: JackClient
        do throws(JackError) {
            client = try JackClient(name: options.jack.clientName, server: options.jack.server)
        } catch {
            frontEnd.error(Phrase(verbatim: error.message))
            return 1
        }
        let parts: SessionParts
        var ports: ClientPorts
        do throws(SessionError) {
            ports = try ClientPorts(options, client: client, channels: nil)
            parts = try SessionParts(options, format: recordFormat, ports: ports, client: client,
                                     remote: remote, environment: environment, clock: TestSeam(environment).clock,
                                     drawPicture: drawPicture,
                                     midiMarker: { [control] frame in control.dropMarker(label: "MIDI", atTimelineFrame: frame) },
                                     display: { [unowned self] names, rate, target in
                                         frontEnd.makeDisplay(names: names, sampleRate: rate, loudnessTarget: target,
                                                              connections: { [unowned self] in
                                                                  current?.ports.inputs.map(\.connections) ?? []
                                                              })
                                     })
        } catch {
            frontEnd.error(error.message)
            return close(client, code: error.exitCode)
        }
        if options.recordsMidiOnly, let midi = parts.midi, let path = options.recording.path, let failure = midi.beginAlone(path: path) {
            frontEnd.error(Phrase(verbatim: failure))
            return close(client, code: 1)
        }
        parts.midiThread?.start()
        // The other clients' ports the patterns matched: what a reconnect waits to see again
        // (our own come back when the next turn registers them).
        let sourceCount = ports.sources.filter { source in !ports.outputs.contains { $0.fullName == source } }.count
        var totals = RunTotals()
        var firstStart: WallClockTime?
        // What the last turn left when the server went away: the wall time of its last frame.
        var lostAt: WallClockTime?
        while true {
            let turn: ClientRun
            do throws(SessionError) {
                turn = try ClientRun(client: client, ports: ports, parts: parts, timelineBase: totals.receivedFrames,
                                     frameLimit: options.recording.duration.map {
                                         Int64(($0 * Double(parts.sampleRate)).rounded()) - totals.receivedFrames
                                     },
                                     tone: control.toneSettings(parts.tone), seam: TestSeam(environment))
            } catch {
                frontEnd.error(error.message)
                let code = finish(parts, totals: totals, last: nil, code: 1, firstStart: firstStart)
                return close(client, code: code)
            }
            current = turn
            let end = turn.run(frontEnd, control: control, onActivated: frontEnd.receiveInterrupts) { start in
                if let lost = lostAt {
                    let gap = ServerGap(from: lost, to: start, sampleRate: parts.sampleRate)
                    totals.add(gap)
                    parts.events?.emit(.serverBack, frame: totals.receivedFrames,
                                       [("gap_seconds", .double(gap.seconds)), ("frames_lost", .int(gap.framesLost)),
                                        ("lost_by", .string("wall_time"))])
                    parts.levels?.beginConnection(timelineBase: totals.receivedFrames, gapSeconds: gap.seconds)
                    frontEnd.say(Phrase(printf: "the server is back after %.3f s (about %lld frames lost, by wall time × rate); ",
                                        gap.seconds, gap.framesLost)
                                 + (parts.files == nil ? "going on" : "recording on"))
                } else {
                    firstStart = start
                    if options.recording.printStart { frontEnd.say("first frame at \(start.iso8601)") }
                    if let line = Self.armedLine(parts) { frontEnd.say(Phrase(verbatim: line)) }
                }
            }
            totals.add(end)
            guard end.ending == .serverGone && options.unattended.reconnect && end.lateWriteFailure == nil else {
                let code = finish(parts, totals: totals, last: end, code: end.ending.exitCode, firstStart: firstStart)
                return withExtendedLifetime(turn) { close(client, code: code) }
            }
            parts.events?.emit(.serverLost, frame: totals.receivedFrames, [("reason", .string("the JACK server went away"))])
            // The stream keeps its Icecast connection, with silence, until the server is back.
            parts.stream?.feed.setServerAway(true)
            let lostSince = DispatchTime.now().uptimeNanoseconds
            frontEnd.say("waiting for a JACK server to come back (\(parts.files?.currentPath ?? "the file") holds everything received; Ctrl-C stops)")
            lostAt = end.endTime ?? WallClockTime.now()
            // The old client's threads have stopped with their server; closing frees it.
            _ = withExtendedLifetime(turn) { client.close(timeout: 2) }
            current = nil
            guard let next = waitForServer(sourceCount: sourceCount, parts: parts) else {
                frontEnd.say("stopped while waiting for the server")
                return finish(parts, totals: totals, last: nil, code: 0, firstStart: firstStart)
            }
            client = next
            parts.loudness?.breakStream()
            parts.stream?.feed.setServerAway(false)
            parts.clock.serverWasAway(seconds: Double(DispatchTime.now().uptimeNanoseconds - lostSince) / 1e9)
            do throws(SessionError) {
                guard client.sampleRate == parts.sampleRate else {
                    throw .runtime("the JACK server came back at \(client.sampleRate) Hz, not \(parts.sampleRate) Hz; stopped, since a run has one rate (everything received is in the files)")
                }
                ports = try ClientPorts(options, client: client, channels: parts.channels)
            } catch {
                frontEnd.error(error.message)
                let code = finish(parts, totals: totals, last: nil, code: 1, firstStart: firstStart)
                return close(client, code: code)
            }
        }
    }

    /// Closes the client (with a watchdog) and passes the exit code on.
    private func close(_ client: JackClient, code: Int32) -> Int32 {
        if !client.close(timeout: 2) {
            // Leave without running exit handlers: libjack's own could wait on the same lock.
            frontEnd.say("libjack did not close the client within 2 s; exiting anyway (the files are complete)")
            _exit(code)
        }
        return code
    }
}
