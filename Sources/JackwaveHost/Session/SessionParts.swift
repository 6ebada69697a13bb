import FoundationEssentials
import Glibc
import JackwaveAnalysis
import JackwaveEngine
import JackwaveLevelStream
import JackwaveMIDI
import JackwaveRecording
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveStreaming
import JackwaveUnattended
import JackwaveVocabulary

/// Everything a run keeps from its first connection to its last: built once, when the first
/// connection has told the server's rate and the ports, in the order that keeps the rules
/// (every usage check before any file; the files, the level stream and the events opened
/// before the audio starts). Each connection (`ClientRun`) is built from these.
final class SessionParts {
    let options: RunOptions
    /// The run's rate (every connection must have it) and its input and output counts.
    let sampleRate: Int
    let channels: Int
    let outputs: Int
    let period: Int
    /// Lines for the user from every thread but the realtime one.
    let messages = MessageQueue()
    let markers = MarkerBook()
    let events: EventLog?
    /// `--on-event`: the command the events a person acts on are handed to.
    let eventHook: EventHook?
    let hook: CloseHook?
    let finisher: FileFinisher?
    let observer: RunObserver
    /// Armed: how takes start and end, and the run's takes.
    let takeSettings: TakeSettings?
    let takes: TakeLedger?
    let files: RecordingFiles?
    let loudness: LoudnessFeed?
    let levels: LevelPipeline?
    let tone: ToneSettings?
    /// `--stream`: the live stream, fed by each connection's writer.
    let stream: Streamer?
    /// `--silence`, `--clip`: dead air and clipping, judged by each connection's writer.
    let alarms: SignalAlarms?
    /// `--keep`, `--keep-space`: the run's files listed, the oldest deleted.
    let keeper: FileKeeper?
    /// The wall clock the connections' start times and the cuts on it are read from.
    let clock: RunClock
    /// The run's dropouts, found by each connection's writer: whenever a writer sees the
    /// audio (a recording, `--loudness`, `--stream`, `--silence` or `--clip`); a bare meter
    /// sees only peaks, and counts none.
    let dropouts: DropoutLedger?
    /// What the run says of its inputs' capture latency.
    let latency: LatencyReport
    /// `--midi` recorded (beside the audio's files, or alone), or `--mmc` heard: the
    /// recorder, and the thread it runs on (started by the session, ended at its end).
    let midi: MidiRecorder?
    let midiThread: MidiThread?
    let midiReport: MidiReport?

    /// Where the lines of the run's threads wait for the main loop: the run's own, the
    /// hook's, the file finisher's, remote control's.
    let lineQueues: [MessageQueue]
    /// `--osc`: its messages are acted on whenever the lines are said (`flushLines`).
    let remote: RemoteControl?

    /// Checks what needs the server's rate and the ports (usage errors), then opens the
    /// run's outputs: the first file, the level stream, the events (runtime errors).
    /// `display` makes the front end's live view of the levels, if it shows one.
    init(_ o: RunOptions, format: SoundFormat?, ports: ClientPorts, client: JackClient, remote: RemoteControl?,
         environment: [String: String], clock: RunClock, drawPicture: PictureDrawing?,
         midiMarker: (@Sendable (Int64) -> Void)? = nil,
         display: (_ names: [String], _ sampleRate: Int, _ loudnessTarget: Double?) -> LevelDisplay?) throws(SessionError) {
        options = o
        self.clock = clock
        let sampleRate = client.sampleRate, period = client.bufferSize, channels = ports.inputs.count
        self.sampleRate = sampleRate
        self.period = period
        self.channels = channels
        outputs = ports.outputs.count
        // Every check that needs the server's rate and the port count, then (only then) files.
        if let hz = o.tone.frequency, hz >= Double(sampleRate) / 2 {
            throw .usage("\(setting: .tone) \(hz.plainText) Hz is not below the Nyquist frequency of the server's \(sampleRate) Hz (\((Double(sampleRate) / 2).plainText) Hz)")
        }
        var spec: RecordingSpec?
        let takeSettings: TakeSettings?
        let streamSettings: StreamSettings?
        do throws(UsageError) {
            spec = try o.recording.path.flatMap { path throws(UsageError) in
                try format.map { format throws(UsageError) in
                    try o.recordingSpec(path: path, format: format, channels: channels, serverRate: sampleRate, period: period)
                }
            }
            takeSettings = try o.takeSettings(channels: channels, serverRate: sampleRate)
            if o.midi.inputs > 0 && o.records, !MidiTiming(fileRate: spec?.fileRate ?? sampleRate).isExact {
                throw UsageError("\(setting: .midi): at \(spec?.fileRate ?? sampleRate) Hz no MIDI tick is one frame (a Standard MIDI File's division has 15 bits); record at a rate such as 44100 or 48000 (\(setting: .rate))")
            }
            streamSettings = try o.streamSettings(channels: channels, serverRate: sampleRate, environment: environment)
            // Streaming or watching for dead air without a file, the writer's ring is still
            // the one `--buffer` sets, and must hold as when recording.
            if spec == nil, o.station.stream != nil || o.station.alarms.isOn {
                try RunOptions.checkBuffer(o.recording.bufferSeconds, channels: channels, serverRate: sampleRate, period: period)
            }
        } catch {
            throw .usage(error.message)
        }
        spec?.trackNames = ports.trackNames
        let writerFrames = Int(o.recording.bufferSeconds * Double(sampleRate))
        let meter = channels > 0 ? display(ports.inputs.map(\.shortName), sampleRate, o.levels.loudness ? o.levels.targetLoudness : nil) : nil
        self.takeSettings = takeSettings
        let levelsWanted = channels > 0 && (o.levels.path != nil || meter != nil)
        let messages = self.messages
        let loudness = try Self.makeLoudness(o.levels, channels: channels, sampleRate: sampleRate, writerFrames: writerFrames,
                                             keepsReadings: levelsWanted, messages: messages)
        self.loudness = loudness
        tone = o.tone.frequency.map { ToneSettings(frequency: $0, amplitude: o.tone.volume, fadeSeconds: o.tone.fadeMilliseconds / 1000) }
        let takes = takeSettings.map { TakeLedger(maximumTakes: $0.maximumTakes) }
        self.takes = takes

        // The outputs, now that nothing more can be refused as bad usage.
        let eventHook = o.unattended.onEvent.map { EventHook(command: $0) }
        self.eventHook = eventHook
        let events = try Self.makeEvents(o.unattended, force: o.recording.force, hook: eventHook)
        self.events = events
        // Retention, before the first file: the oldest of earlier runs' files go first (once
        // the files have counted the numbers that exist, so that no name is used again).
        let keeper = o.recording.path.flatMap {
            Self.makeKeeper(path: $0, limits: o.station.retention, messages: messages, events: events)
        }
        self.keeper = keeper
        var ran: (@Sendable (String) -> Void)?
        if let keeper { ran = { path in keeper.hookRan(path) } }
        let hook = o.unattended.onClose.map { CloseHook(command: $0, events: events, timeout: o.unattended.onCloseTimeout, ran: ran) }
        self.hook = hook
        // Each file's own loudness when there are several: numbered files.
        let pictures = o.recording.plotPath.flatMap { path in drawPicture.map { (path: path, draw: $0) } }
        let midi = Self.makeMidi(o, ports: ports, spec: spec, sampleRate: sampleRate, takeSettings: takeSettings,
                                 messages: messages, events: events, marker: midiMarker)
        self.midi = midi
        let midiThread = midi.map { MidiThread(recorder: $0, messages: messages, events: events) }
        self.midiThread = midiThread
        let finisher = spec.map { FileFinisher(spec: $0, pictures: pictures, measuresLoudness: o.levels.loudness && $0.naming.isNumbered,
                                               events: events, hook: hook, keeper: keeper, companion: midiThread?.companion) }
        self.finisher = finisher
        let observer = RunObserver(events: events, finisher: finisher, takes: takes, markers: markers)
        self.observer = observer
        midiReport = ports.midiInputs.isEmpty ? nil : MidiReport(names: ports.midiInputs.map(\.shortName), recorded: o.midi.inputs)
        files = spec.map { RecordingFiles(spec: $0, observer: observer, keeper: keeper, messages: messages, companion: midiThread?.companion) }
        keeper?.prune(frame: 0)
        if let files, !files.spec.takes {
            // On the wall clock, the first file is named after now: frame 0 comes a moment
            // later, once the ports are connected.
            if files.spec.clock != nil { files.setStart(clock.reading(atFrame: 0, sampleRate: sampleRate)) }
            do throws(SoundFileError) { try files.openFirstFile() } catch { throw .runtime(Phrase(verbatim: error.message)) }
        }
        let dropouts = channels > 0 && (spec != nil || loudness != nil || streamSettings != nil || o.station.alarms.isOn)
            ? DropoutLedger(inputNames: ports.inputs.map(\.shortName), sampleRate: sampleRate, events: events,
                            messages: messages, feedsLevels: o.levels.path != nil)
            : nil
        self.dropouts = dropouts
        latency = LatencyReport(events: events, sampleRate: sampleRate, stamped: spec?.format.carriesBroadcastInfo ?? false)
        levels = levelsWanted
            ? try Self.makeLevels(o, names: ports.inputs.map(\.shortName), sampleRate: sampleRate, display: meter,
                                  loudness: loudness, takes: takes, dropouts: dropouts,
                                  midiInputs: ports.midiInputs.map(\.shortName), events: events)
            : nil
        let ringFrames = spec != nil || streamSettings != nil || o.station.alarms.isOn ? writerFrames
            : loudness == nil ? 0 : Int(LoudnessFeed.meterRingSeconds * Double(sampleRate))
        audioRingFrames = ringFrames
        stream = streamSettings.map {
            Self.makeStream($0, channels: channels, sampleRate: sampleRate, ringFrames: ringFrames, messages: messages, events: events)
        }
        alarms = o.station.alarms.isOn && channels > 0
            ? Self.makeAlarms(o.station.alarms, channels: channels, sampleRate: sampleRate, messages: messages, events: events)
            : nil
        self.remote = remote
        lineQueues = [messages] + [events?.messages, hook?.messages, finisher?.messages, eventHook?.messages, remote?.lines]
            .compactMap { $0 }
        eventHook?.start()
        hook?.start()
        loudness?.start()
        stream?.start()
    }

    /// Acts on remote control's waiting messages, then says every line the run's threads
    /// have queued, oldest first per queue. Main thread, in every state of the run.
    func flushLines(to ui: RunFrontEnd) {
        remote?.pump()
        for queue in lineQueues {
            for line in queue.drain() { ui.say(line) }
        }
    }

    /// The audio ring a connection needs: the writer's (`--buffer`) when recording,
    /// streaming or watching for dead air, a short one for the loudness analysis alone when
    /// only metering, none otherwise.
    let audioRingFrames: Int
}

/// Each feature's parts, built by a factory of its own from its section of the options, so
/// that the order and the rules of building (above) stay readable in one place.
extension SessionParts {
    /// Live loudness, when asked for and there are inputs; a channel count or rate that
    /// libebur128 cannot measure is bad usage.
    static func makeLoudness(_ levels: RunOptions.Levels, channels: Int, sampleRate: Int, writerFrames: Int,
                             keepsReadings: Bool, messages: MessageQueue) throws(SessionError) -> LoudnessFeed? {
        guard levels.loudness && channels > 0 else { return nil }
        guard let feed = LoudnessFeed(channels: channels, sampleRate: sampleRate, writerFrames: writerFrames,
                                      keepsReadings: keepsReadings, messages: messages) else {
            throw .usage("\(setting: .loudness): libebur128 cannot measure \(channels) channels at \(sampleRate) Hz")
        }
        return feed
    }

    /// The MIDI recorder, when MIDI is recorded or MMC heard: its tracks named after the
    /// sources, ticks on the files' rate, events kept as far back as a file may begin.
    static func makeMidi(_ o: RunOptions, ports: ClientPorts, spec: RecordingSpec?, sampleRate: Int, takeSettings: TakeSettings?,
                         messages: MessageQueue, events: EventLog?, marker: (@Sendable (Int64) -> Void)?) -> MidiRecorder? {
        guard o.records, !ports.midiInputs.isEmpty else { return nil }
        let fileRate = spec?.fileRate ?? sampleRate
        let overlap = (spec?.clock?.overlapFrames ?? 0) * Int64(sampleRate) / Int64(fileRate)
        let lookBack = Int64(takeSettings?.preRollFrames ?? 0) + overlap + Int64(sampleRate)
        let settings = MidiRecordingSettings(trackNames: ports.midiTrackNames, controlInput: o.midi.controlPort == nil ? nil : ports.midiInputs.count - 1,
                                             marker: o.midi.marker, inputRate: sampleRate, fileRate: fileRate,
                                             policy: o.recording.force ? .replace : .new, lookBackFrames: lookBack)
        return MidiRecorder(settings: settings, messages: messages, events: events, onMarker: marker)
    }

    /// The event log: a file (or stdout), or only the hook's feed, or none.
    static func makeEvents(_ unattended: RunOptions.Unattended, force: Bool, hook: EventHook?) throws(SessionError) -> EventLog? {
        do throws(EventLogError) {
            return try unattended.eventsPath.map { path throws(EventLogError) in
                try EventLog(path: path, policy: force ? .replace : .new, hook: hook)
            } ?? hook.map { EventLog(hook: $0) }
        } catch {
            throw .runtime(error.message)
        }
    }

    /// Retention, when limits are set. The recording matters more than the clean-up:
    /// retention that cannot start (a bad manifest, kept as it is for a person to look at; a
    /// lock it cannot trust) is a line and an event, and the run records without it.
    static func makeKeeper(path: String, limits: RetentionLimits, messages: MessageQueue, events: EventLog?) -> FileKeeper? {
        guard limits.seconds != nil || limits.bytes != nil else { return nil }
        do throws(RetentionError) {
            return try FileKeeper(path: path, limits: limits, messages: messages, events: events)
        } catch {
            messages.post("retention: off for this run, nothing will be deleted: \(error.message)")
            events?.emit(.retentionOff, frame: 0, [("reason", .string(error.message))])
            return nil
        }
    }

    /// The run-wide level pipeline: the level stream (its columns are the ports' short
    /// names, `in_1`…), the meter, the loudness readings.
    static func makeLevels(_ o: RunOptions, names: [String], sampleRate: Int, display: LevelDisplay?, loudness: LoudnessFeed?,
                           takes: TakeLedger?, dropouts: DropoutLedger?, midiInputs: [String],
                           events: EventLog?) throws(SessionError) -> LevelPipeline {
        var stream: LevelStreamWriter?
        if let path = o.levels.path {
            var formatter = LevelStreamFormatter(format: LevelStreamFormat.forPath(path, explicit: o.levels.format),
                                                 sampleRate: sampleRate, channelNames: names, loudness: loudness != nil)
            formatter.takeColumn = takes != nil
            formatter.gapColumn = o.unattended.reconnect
            formatter.dropoutColumn = dropouts != nil
            formatter.midiInputs = midiInputs
            do throws(LevelStreamError) {
                stream = try LevelStreamWriter(path: path, formatter: formatter, policy: o.recording.force ? .replace : .new,
                                               queued: true)
            } catch {
                throw .runtime(error.message)
            }
        }
        let pipeline = LevelPipeline(channels: names.count, sampleRate: sampleRate, stream: stream,
                                     intervalFrames: o.levels.intervalMilliseconds.map {
                                         LevelAggregator.intervalFrames(milliseconds: $0, sampleRate: sampleRate)
                                     },
                                     display: display, loudness: loudness, takes: takes, dropouts: dropouts,
                                     midiInputs: midiInputs.count)
        pipeline.events = events
        // A side job beside files or a stream; the run's whole output when it has neither.
        pipeline.endsRun = o.recording.path == nil && o.station.stream == nil
        return pipeline
    }

    /// The live stream, reporting through its own lines and events.
    static func makeStream(_ settings: StreamSettings, channels: Int, sampleRate: Int, ringFrames: Int,
                           messages: MessageQueue, events: EventLog?) -> Streamer {
        let report = StreamReport(target: settings.target, sampleRate: sampleRate, messages: messages, events: events)
        return Streamer(target: settings.target, password: settings.password, channels: channels, sampleRate: sampleRate,
                        writerFrames: ringFrames, compression: settings.compression, events: report.tell)
    }

    /// The dead-air and clipping alarms, each said as a line and an event.
    static func makeAlarms(_ settings: AlarmSettings, channels: Int, sampleRate: Int, messages: MessageQueue,
                           events: EventLog?) -> SignalAlarms {
        SignalAlarms(settings: settings, channels: channels, sampleRate: sampleRate) { [messages] alarm in
            messages.post(Phrase(verbatim: alarm.line(sampleRate: sampleRate)))
            events?.emit(alarm.kind, frame: alarm.frame, alarm.fields(sampleRate: sampleRate, settings: settings))
        }
    }
}
