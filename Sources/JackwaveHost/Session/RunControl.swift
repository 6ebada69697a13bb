import FoundationEssentials
import Glibc
import JackwaveAnalysis
import JackwaveEngine
import JackwaveMIDI
import JackwaveRecording
import JackwaveRunSupport
import JackwaveTimecode
import JackwaveUnattended
import Synchronization

/// What the user (the terminal's keys, SIGUSR1) and remote control (OSC) may do to a run,
/// whichever of its connections is running: change the tone, drop a marker, cut the file,
/// ask how it goes.
///
/// It exists from the start of the command (remote control listens before the server is
/// reached); the session points it at each connection as it starts and at none while it
/// waits for a server (`attach`). Everything reaches the audio only through the atomics the
/// callback polls (`EngineSignals`) and the files' cut request. Thread-safe: the main thread
/// and the OSC thread use it at once.
public final class RunControl: @unchecked Sendable {
    /// The running connection, as far as control may reach into it.
    struct Connection: @unchecked Sendable {
        let signals: EngineSignals
        let writer: RecordingWriter?
        let takes: TakeController?
        /// Its frame 0 on the run's timeline, and its rate.
        let timelineBase: Int64
        let sampleRate: Int
        /// The run's files, markers, observer and lines.
        let files: RecordingFiles?
        let markers: MarkerBook
        let observer: RunObserver
        let messages: MessageQueue
        /// Dead air and clipping (`--silence`, `--clip`), if watched.
        let alarms: SignalAlarms?
        /// MIDI (`--midi`, `--mmc`): the callback's counts, the recorder's, and what is said of them.
        var midiActivity: MidiActivity? = nil
        var midi: MidiRecorder? = nil
        var midiReport: MidiReport? = nil
        /// `--ltc`: the decoder of the LTC input.
        var timecode: TimecodeFollower? = nil
    }

    public let playsTone: Bool
    /// Whether this run records.
    public let records: Bool
    private let current = Mutex<Connection?>(nil)
    /// The tone as last set (keys, OSC), for the next connection to start with.
    private let tone: Mutex<(frequency: Double, amplitude: Float, paused: Bool)>

    /// Control of a run that plays `tone` (nil: none) and records or not.
    public init(tone: ToneSettings?, records: Bool) {
        playsTone = tone != nil
        self.records = records
        self.tone = Mutex((tone?.frequency ?? 0, tone?.amplitude ?? 0, false))
    }

    /// Points control at a running connection, or at none (main thread, by the session).
    func attach(_ connection: Connection?) { current.withLock { $0 = connection } }

    /// Whether a connection is running now.
    public var isRunning: Bool { current.withLock { $0 != nil } }

    /// The running connection's sample rate, nil while none runs.
    public var sampleRate: Int? { current.withLock { $0?.sampleRate } }

    // MARK: Markers

    /// Drops a marker at the frame the callback has reached (or at `streamFrame` of the
    /// running connection, where a remote asked for it, or at `timelineFrame`, where a MIDI
    /// event did: `--midi-marker`); returns its number, or nil when
    /// nothing is recorded, no connection runs, or the run holds all it can.
    @discardableResult
    public func dropMarker(label: String? = nil, atStreamFrame streamFrame: Int64? = nil,
                           atTimelineFrame timelineFrame: Int64? = nil) -> Int? {
        guard records, let run = current.withLock({ $0 }) else { return nil }
        // A lone counter (relaxed): the frame the callback had reached, within a period.
        guard let (number, frame) = run.markers.drop(at: {
            timelineFrame ?? run.timelineBase + (streamFrame ?? Int64(run.signals.streamFrames.load(ordering: .relaxed)))
        }) else {
            run.messages.post("marker not dropped: this run already holds \(MarkerBook.maximumMarkers) markers, the most it keeps")
            return nil
        }
        let named = label.map { " (\($0))" } ?? ""
        run.messages.post("marker \(number)\(named) at \(String(printf: "%.3f s", Double(frame) / Double(run.sampleRate)))")
        run.observer.events?.emit(.marker, frame: frame, [("number", .int(Int64(number)))] + (label.map { [("label", .string($0))] } ?? []))
        return number
    }

    // MARK: The tone

    /// The tone as the callback plays it now (or as the next connection will start it).
    public var playingTone: (frequency: Double, amplitude: Float, paused: Bool) {
        guard let run = current.withLock({ $0 }) else { return tone.withLock { $0 } }
        // The same independent values `setTone` stores (relaxed): each is read whole.
        return (Double(bitPattern: run.signals.toneFrequencyBits.load(ordering: .relaxed)),
                Float(bitPattern: run.signals.toneAmplitudeBits.load(ordering: .relaxed)),
                run.signals.tonePaused.load(ordering: .relaxed))
    }

    /// Changes the playing tone; the callback picks each value up on its next cycle.
    public func setTone(frequency: Double? = nil, amplitude: Float? = nil, paused: Bool? = nil) {
        let next = tone.withLock { t in
            if let frequency { t.frequency = frequency }
            if let amplitude { t.amplitude = amplitude }
            if let paused { t.paused = paused }
            return t
        }
        guard let run = current.withLock({ $0 }) else { return }
        // Each is an independent value the callback polls (relaxed).
        if frequency != nil { run.signals.toneFrequencyBits.store(next.frequency.bitPattern, ordering: .relaxed) }
        if amplitude != nil { run.signals.toneAmplitudeBits.store(next.amplitude.bitPattern, ordering: .relaxed) }
        if paused != nil { run.signals.tonePaused.store(next.paused, ordering: .relaxed) }
    }

    /// Fades the tone out (`q`); the run ends when the fade has.
    public func stopTone() {
        current.withLock { $0 }?.signals.toneStopRequested.store(true, ordering: .relaxed)
    }

    /// Whether the tone has been asked to fade out.
    public var toneStopping: Bool {
        current.withLock { $0 }?.signals.toneStopRequested.load(ordering: .relaxed) ?? false
    }

    /// The tone a new connection starts with: the one last set.
    func toneSettings(_ asked: ToneSettings?) -> ToneSettings? {
        guard var settings = asked else { return nil }
        let t = tone.withLock { $0 }
        settings.frequency = t.frequency
        settings.amplitude = t.amplitude
        return settings
    }

    // MARK: The files

    /// The running connection's stream position (the frame the callback has reached), nil
    /// while none runs: what a remote message is stamped with as it arrives (any thread).
    public var streamFrame: Int64? {
        // A lone counter (relaxed), as the keys read it.
        current.withLock { $0.map { Int64($0.signals.streamFrames.load(ordering: .relaxed)) } }
    }

    /// The timeline frame of the last cut asked for, for the shortest piece (main thread).
    private var lastCut: Int64 = 0

    /// Cuts the recording at `streamFrame` of the running connection (by default where the
    /// callback is now), at least `seconds` after the last cut: the writer starts the next
    /// numbered file exactly there. Returns the line to say. Main thread.
    public func split(atStreamFrame given: Int64? = nil, atLeast seconds: Double = 0) -> String {
        guard let run = current.withLock({ $0 }), let files = run.files else {
            return "OSC: /jackwave/split: nothing is being recorded (ignored)"
        }
        if let takes = run.takes, TakePhase(rawValue: takes.phase.load(ordering: .relaxed)) == .armed {
            return "OSC: /jackwave/split: armed, no take is recording (ignored)"
        }
        let frame = given ?? Int64(run.signals.streamFrames.load(ordering: .relaxed))
        let least = Int64(seconds * Double(run.sampleRate))
        if lastCut > 0 && run.timelineBase + frame - lastCut < least {
            return String(printf: "OSC: /jackwave/split: the last cut was %.3f s before; pieces are at least %g s long (ignored)",
                          Double(run.timelineBase + frame - lastCut) / Double(run.sampleRate), seconds)
        }
        lastCut = run.timelineBase + frame
        files.requestCut(atStreamFrame: frame)
        return String(printf: "OSC: split at %.3f s (frame %lld)", Double(run.timelineBase + frame) / Double(run.sampleRate),
                      run.timelineBase + frame)
    }

    /// Writes an event of the front end's own (a session manager gone, a request refused)
    /// at the frame the callback has reached; false while no connection runs (main thread).
    @discardableResult
    public func emit(_ kind: RunEventKind, _ fields: [(String, EventLog.Value)] = []) -> Bool {
        guard let run = current.withLock({ $0 }), let events = run.observer.events else { return false }
        // A lone counter (relaxed), as the keys read it.
        let frame = run.observer.timeline(streamFrame: Int(run.signals.streamFrames.load(ordering: .relaxed)))
        events.emit(kind, frame: frame, fields)
        return true
    }

    /// A session manager's save: every frame received so far written and the open file's
    /// header brought up to date, within `timeout` seconds (main thread). What to reply.
    public func save(timeout: Double) -> (saved: Bool, line: String) {
        guard let run = current.withLock({ $0 }) else { return (true, "no server yet: nothing recorded to save") }
        guard let writer = run.writer, let files = run.files else { return (true, "nothing is recorded") }
        guard writer.refreshHeaders(timeout: timeout) else {
            return (false, "the writer did not bring the file up to date within \(Int(timeout * 1000)) ms")
        }
        let seconds = Double(writer.framesWritten.load(ordering: .relaxed)) / Double(run.sampleRate)
        let name = files.currentPath.map { String($0.split(separator: "/").last ?? "") } ?? "no file open"
        return (true, "\(name) up to date: \(String(printf: "%.1f", seconds)) s recorded")
    }

    /// What `/jackwave/status` says: the state (`recording`, `armed`, `playing`,
    /// `monitoring`, `waiting`), the take (0 when not armed or before the first), the file
    /// written now, frames written (or received), xruns, dropped frames, then the alarms:
    /// seconds of dead air under way (0 when none) and the clips of the last clipping second
    /// (0 when none in the last few seconds), the MIDI counts and last MMC command, and the
    /// LTC input's timecode and state (`locked`, `freewheeling`, `lost`, `searching`; empty
    /// strings without `--ltc`).
    public func status() -> (state: String, take: Int, file: String, frames: Int64, xruns: Int, dropped: Int,
                             deadAirSeconds: Double, clips: Int, midiEvents: Int, midiLost: Int, lastCommand: String,
                             timecode: String, timecodeState: String) {
        guard let run = current.withLock({ $0 }) else { return ("waiting", 0, "", 0, 0, 0, 0, 0, 0, 0, "", "", "") }
        var state = run.files != nil ? "recording" : playsTone ? "playing" : "monitoring"
        var take = 0
        if let takes = run.takes {
            take = takes.takeNumber.load(ordering: .relaxed)
            switch TakePhase(rawValue: takes.phase.load(ordering: .relaxed)) ?? .armed {
            case .armed: state = "armed"
            case .recording: state = "recording"
            case .stopping: state = "stopping"
            }
        }
        let frames = run.writer.map { Int64($0.framesWritten.load(ordering: .relaxed)) }
            ?? Int64(run.signals.streamFrames.load(ordering: .relaxed))
        let now = run.timelineBase + Int64(run.signals.streamFrames.load(ordering: .relaxed))
        let alarms = run.alarms?.state
        return (state, take, run.files?.currentPath ?? "", frames, run.signals.xruns.load(ordering: .relaxed),
                run.signals.droppedFrames.load(ordering: .relaxed),
                alarms?.silentSeconds(now: now, sampleRate: run.sampleRate) ?? 0,
                alarms?.clipsShown(now: now, sampleRate: run.sampleRate) ?? 0,
                run.midiReport.map { $0.events(run.midiActivity).prefix($0.recorded).reduce(0, +) } ?? 0,
                run.midiReport?.lostTotal(run.midiActivity, run.midi?.snapshot) ?? 0,
                run.midi?.snapshot.lastCommand ?? "",
                run.timecode.map { TimecodeReport.status($0.lock).code } ?? "",
                run.timecode.map { TimecodeReport.status($0.lock).state } ?? "")
    }
}
