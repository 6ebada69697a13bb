import JackwaveDSP
import JackwaveRecording
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveVocabulary
import Synchronization

/// The MIDI of a recording, on the MIDI thread (`MidiThread`, which calls every method but
/// `snapshot` and the main thread's before it starts): takes the events the callback put in
/// the MIDI ring and writes each into the `.mid` beside every sound file whose frames hold
/// it, at its exact frame (tick = frame from the file's first).
///
/// Why it follows the sound files rather than cutting on its own: the pieces (`--split`,
/// the wall clock, a remote split, takes, reconnects) are decided by the audio's writer, and
/// the writer tells each file's first and end frames as it writes them (`MidiHandOff`). The
/// callback publishes a frame's events before its audio, so once the writer has reached a
/// frame, every event before it is in the ring.
///
/// A `.mid` that cannot be made or written is said (a line and a `midi_failed` event) and
/// ends that file's MIDI alone: its events are counted as `unwritten`, and the next file
/// tries again.
///
/// Events wait in `log`, kept in frame order, until no file can still want them: a take's
/// pre-roll and an `--overlap` lead-in begin before the writer's position, by at most
/// `lookBackFrames`. What leaves the log is played into `retired`, each input's state, from
/// which a file starting later learns what was sounding and held (`ChaseState`).
public final class MidiRecorder: @unchecked Sendable {
    public let settings: MidiRecordingSettings
    private let timing: MidiTiming
    private let messages: MessageQueue
    private let events: EventLog?
    /// A marker at a timeline frame (`--midi-marker`); the session drops it.
    private let onMarker: (@Sendable (Int64) -> Void)?

    /// This connection's ring and frame 0 on the run's timeline (`attach`).
    private var ring: SPSCRing<MidiRecord>?
    private var timelineBase: Int64 = 0
    private var assembler: MidiAssembler

    private struct Entry {
        var message: MidiMessage
        var written = false
        /// Counted lost already: meant for a file whose `.mid` failed, or that was full.
        var lost = false
    }
    /// Events not yet retired, in frame order; `logBase` counts those retired before.
    private var log: [Entry] = []
    private var logBase = 0
    private var retired: [ChaseState]
    private var reachedFrame: Int64 = 0
    /// A file being written beside a sound file, with the absolute log index of its next
    /// event; its piece is nil once its `.mid` failed (its events are then counted unwritten).
    /// `pending`: per input, the events added to it (and to no other file) since it was last
    /// written: counted recorded once on disk, unwritten if that write fails.
    private struct OpenFile {
        var piece: MidiPiece?
        var cursor: Int
        let audioPath: String
        let firstFrame: Int64
        var pending: [Int]
    }
    private var open: [OpenFile] = []
    /// Set by `stop`: from then on every event is counted unwritten.
    private var stopped = false
    /// Controllers on the control input held at 64 or more, per channel × number: a marker
    /// is a press, not every value of a held pedal.
    private var held = Set<Int>()
    /// The most events waiting at once: far more than a pre-roll's worth of dense MIDI.
    static let maximumWaiting = 200_000

    /// What the run says of its MIDI, read by the main thread for the status and summary.
    public struct Totals: Sendable, Equatable {
        /// Per recorded input: events written into files, and events lost on the way: no
        /// room waiting or a file full (`lost`), malformed, not storable in a Standard MIDI
        /// File, or meant for a `.mid` that failed or for after MIDI stopped (`unwritten`).
        public var recorded: [Int]
        public var lost: [Int]
        public var malformed: [Int]
        public var unrecordable: [Int]
        public var unwritten: [Int]
        /// Per recorded input: events outside every file (armed, between takes, after the
        /// last): not lost, not recorded.
        public var outside: [Int]
        public var files = 0
        public var firstFile: String?
        public var lastFile: String?
        /// Notes a cut ended and the next piece started again.
        public var chasedNotes = 0
        /// MMC commands heard on the control input, by name (`record_strobe`, `record_exit`,
        /// `stop`, `ignored`), and the last one.
        public var commands: [String: Int] = [:]
        public var lastCommand: String?
    }
    private let totals: Mutex<Totals>

    public init(settings: MidiRecordingSettings, messages: MessageQueue, events: EventLog?,
                onMarker: (@Sendable (Int64) -> Void)?) {
        self.settings = settings
        timing = MidiTiming(fileRate: settings.fileRate)
        self.messages = messages
        self.events = events
        self.onMarker = onMarker
        let inputs = settings.trackNames.count
        assembler = MidiAssembler(ports: inputs + (settings.controlInput == nil ? 0 : 1))
        retired = Array(repeating: ChaseState(), count: inputs)
        let zeros = Array(repeating: 0, count: inputs)
        totals = Mutex(Totals(recorded: zeros, lost: zeros, malformed: zeros, unrecordable: zeros, unwritten: zeros, outside: zeros))
    }

    public var snapshot: Totals { totals.withLock { $0 } }

    /// This connection's MIDI ring, its frame 0 on the run's timeline. What the last
    /// connection's ring still holds is taken first (its callback has stopped).
    public func attach(ring: SPSCRing<MidiRecord>, timelineBase: Int64) {
        endInput()
        self.ring = ring
        self.timelineBase = timelineBase
    }

    /// The connection's sources are gone: what its ring holds is taken, and a SysEx still
    /// waiting for its end is counted malformed (`MidiAssembler.endInput`).
    public func endInput() {
        drain()
        assembler.endInput()
        noteAssemblyLosses()
    }

    // MARK: What the writer tells (through `MidiHandOff`)

    public func fileBegan(_ file: RecordedFile) { _ = begin(file) }

    /// `--record take.mid`: the one file, from the run's frame 0, made now (main thread,
    /// before the first connection's writer starts); what went wrong, if anything did.
    public func beginAlone(path: String) -> String? {
        begin(RecordedFile(path: path, take: 0, piece: 1, firstFrame: 0, endFrame: 0, frames: 0, ok: true))
    }

    /// The end of `--record take.mid`, at the run's last frame (`frames`): what to tell as
    /// its `fileEnded`.
    public func aloneFile(path: String, frames: Int64) -> RecordedFile {
        RecordedFile(path: path, take: 0, piece: 1, firstFrame: 0, endFrame: frames,
                     frames: settings.inputRate == settings.fileRate ? frames : Int64(ticks(frames)), ok: true)
    }

    /// Opens the `.mid` for `file`; what went wrong, if anything did (said, and told as an event).
    private func begin(_ file: RecordedFile) -> String? {
        drain()
        guard !settings.trackNames.isEmpty, !stopped else { return nil }
        let path = MidiRecordingSettings.midiPath(beside: file.path)
        var state = retired
        var index = 0
        while index < log.count && log[index].message.frame < file.firstFrame {
            let m = log[index].message
            if m.port < state.count { state[m.port].apply(m) }
            index += 1
        }
        do throws(MidiFileError) {
            let piece = try MidiPiece(path: path, policy: settings.policy, firstFrame: file.firstFrame,
                                      trackNames: settings.trackNames, timing: timing, state: state)
            try piece.refresh(lengthTicks: 0)
            open.append(OpenFile(piece: piece, cursor: logBase + index, audioPath: file.path, firstFrame: file.firstFrame,
                                 pending: Array(repeating: 0, count: settings.trackNames.count)))
            totals.withLock {
                $0.files += 1
                if $0.firstFile == nil { $0.firstFile = path }
                $0.lastFile = path
                $0.chasedNotes += piece.chasedNotes
            }
            return nil
        } catch {
            fail(path: path, error.message, frame: file.firstFrame)
            // Kept open, failed, so that the events meant for it are counted.
            open.append(OpenFile(piece: nil, cursor: logBase + index, audioPath: file.path, firstFrame: file.firstFrame,
                                 pending: Array(repeating: 0, count: settings.trackNames.count)))
            return error.message
        }
    }

    public func fileEnded(_ file: RecordedFile) {
        drain()
        guard let at = open.firstIndex(where: { $0.audioPath == file.path && $0.firstFrame == file.firstFrame }) else { return }
        dispatch(upTo: file.endFrame, only: at)
        let entry = open.remove(at: at)
        guard let piece = entry.piece else {
            retire()
            return
        }
        do throws(MidiFileError) {
            try piece.finish(lengthTicks: Int(file.frames))
            settle(entry.pending, written: true)
            events?.emit(.midiFileClosed, frame: file.endFrame, [("path", .string(piece.path)),
                                                                 ("events", .ints(piece.events.map { Int64($0) })),
                                                                 ("chased_notes", .int(Int64(piece.chasedNotes)))])
        } catch {
            settle(entry.pending, written: false)
            fail(path: piece.path, error.message, frame: file.endFrame)
        }
        retire()
    }

    /// Counts a file's pending events recorded (on disk) or unwritten (its write failed).
    private func settle(_ pending: [Int], written: Bool) {
        guard pending.contains(where: { $0 > 0 }) else { return }
        totals.withLock { t in
            for (port, n) in pending.enumerated() {
                if written { t.recorded[port] += n } else { t.unwritten[port] += n }
            }
        }
    }

    public func reached(_ timelineFrame: Int64) {
        drain()
        reachedFrame = max(reachedFrame, timelineFrame)
        dispatch(upTo: reachedFrame, only: nil)
        retire()
    }

    public func refresh() {
        for i in open.indices {
            guard let piece = open[i].piece else { continue }
            do throws(MidiFileError) {
                try piece.refresh(lengthTicks: ticks(max(0, reachedFrame - piece.firstFrame)))
                settle(open[i].pending, written: true)
            } catch {
                settle(open[i].pending, written: false)
                fail(path: piece.path, error.message, frame: reachedFrame)
                open[i].piece = nil
            }
            open[i].pending = open[i].pending.map { _ in 0 }
        }
    }

    /// The run has ended (its last files ended): what its sources sent last is taken, and
    /// the events no file held are counted outside every file.
    public func finishRun() {
        endInput()
        dispatch(upTo: reachedFrame, only: nil)
        refresh()
        totals.withLock { t in
            for entry in log where !entry.written && !entry.lost { t.outside[entry.message.port] += 1 }
        }
        logBase += log.count
        log.removeAll()
    }

    /// MIDI stops for the rest of the run (said by whoever saw why): the open files are
    /// finished as they stand, at the frame reached; the events waiting past it, and every
    /// event from now on, are counted unwritten. The control input is still heard.
    public func stop() {
        guard !stopped else { return }
        drain()
        dispatch(upTo: reachedFrame, only: nil)
        for entry in open {
            guard let piece = entry.piece else { continue }
            do throws(MidiFileError) {
                try piece.finish(lengthTicks: ticks(max(0, reachedFrame - piece.firstFrame)))
                settle(entry.pending, written: true)
            } catch {
                settle(entry.pending, written: false)
                fail(path: piece.path, error.message, frame: reachedFrame)
            }
        }
        open.removeAll()
        stopped = true
        totals.withLock { t in
            for entry in log where !entry.written && !entry.lost {
                if entry.message.frame < reachedFrame { t.outside[entry.message.port] += 1 } else { t.unwritten[entry.message.port] += 1 }
            }
        }
        logBase += log.count
        log.removeAll()
    }

    // MARK: The log

    /// Takes every record in the ring into the log (the control input's into markers).
    private func drain() {
        guard let ring else { return }
        while true {
            let region = ring.readableRegions(upTo: 256)
            guard region.count > 0 else { return }
            for i in 0..<region.count {
                let record = i < region.firstCount ? region.first[i] : region.second[i - region.firstCount]
                record.withBytes { bytes in
                    assembler.take(port: Int(record.port), bytes: bytes, continues: record.continues,
                                   frame: timelineBase + record.frame) { message in take(message) }
                }
            }
            ring.commitRead(region.count)
            noteAssemblyLosses()
        }
    }

    private func take(_ message: MidiMessage) {
        if message.port == settings.controlInput {
            control(message)
            return
        }
        guard message.port < settings.trackNames.count else { return }
        if stopped {
            totals.withLock { $0.unwritten[message.port] += 1 }
            return
        }
        guard log.count < Self.maximumWaiting else {
            totals.withLock { $0.lost[message.port] += 1 }
            return
        }
        // Events come in frame order per input; inputs of one cycle may interleave.
        log.append(Entry(message: message))
        var i = log.count - 1
        while i > 0 && log[i - 1].message.frame > log[i].message.frame {
            log.swapAt(i - 1, i)
            i -= 1
        }
    }

    /// Writes the log's events before `limit` into the open files that hold them.
    private func dispatch(upTo limit: Int64, only: Int?) {
        for k in open.indices where only == nil || only == k {
            var cursor = open[k].cursor
            let first = open[k].firstFrame
            while cursor - logBase < log.count && log[cursor - logBase].message.frame < limit {
                let message = log[cursor - logBase].message
                if message.frame >= first {
                    // Counted once, however many files wanted it; lost only if none took it.
                    let counted = log[cursor - logBase].written || log[cursor - logBase].lost
                    guard let piece = open[k].piece else {
                        // Its `.mid` failed.
                        if !counted { totals.withLock { $0.unwritten[message.port] += 1 } }
                        log[cursor - logBase].lost = true
                        cursor += 1
                        continue
                    }
                    if piece.add(message, tick: ticks(message.frame - first)) {
                        if !log[cursor - logBase].written { open[k].pending[message.port] += 1 }
                        log[cursor - logBase].written = true
                    } else {
                        // The file is full.
                        if !counted { totals.withLock { $0.lost[message.port] += 1 } }
                        log[cursor - logBase].lost = true
                    }
                }
                cursor += 1
            }
            open[k].cursor = cursor
        }
    }

    /// Lets go of the events no file can still want: before every open file's next event,
    /// and further back than any file may begin.
    private func retire() {
        let bound = reachedFrame - settings.lookBackFrames
        let cursorLimit = open.map { $0.cursor - logBase }.min() ?? log.count
        var n = 0
        var outside: [Int] = []
        while n < min(cursorLimit, log.count) && log[n].message.frame < bound {
            let entry = log[n]
            retired[entry.message.port].apply(entry.message)
            if !entry.written && !entry.lost { outside.append(entry.message.port) }
            n += 1
        }
        guard n > 0 else { return }
        log.removeFirst(n)
        logBase += n
        if !outside.isEmpty { totals.withLock { t in for port in outside { t.outside[port] += 1 } } }
    }

    /// Ticks for `frames` of the server's rate: frames of the file's.
    private func ticks(_ frames: Int64) -> Int {
        settings.inputRate == settings.fileRate ? Int(frames)
            : Int((frames * Int64(settings.fileRate) + Int64(settings.inputRate / 2)) / Int64(settings.inputRate))
    }

    // MARK: The control input

    private func control(_ message: MidiMessage) {
        let seconds = String(printf: "%.3f s", Double(message.frame) / Double(settings.inputRate))
        if let command = message.bytes.withUnsafeBufferPointer({ MachineControl.command(in: $0.baseAddress!, length: $0.count) }) {
            let name: String
            switch command {
            case .recordStrobe: name = "record_strobe"
            case .recordExit: name = "record_exit"
            case .stop: name = "stop"
            case .other:
                name = "ignored"
                messages.post(Phrase(verbatim: "MMC command 0x\(String(message.bytes[4], radix: 16, uppercase: true)) at \(seconds) ignored: jackwave acts on RECORD STROBE, RECORD EXIT and STOP only (LOCATE and the others do not move a recording)"))
            }
            if command != .other {
                messages.post(Phrase(verbatim: "MMC \(String(name.map { $0 == "_" ? " " : $0 }).uppercased()) at \(seconds)"))
            }
            events?.emit(.machineControl, frame: message.frame, [("command", .string(name))])
            totals.withLock {
                $0.commands[name, default: 0] += 1
                $0.lastCommand = name
            }
            return
        }
        guard let trigger = settings.marker, let (kind, channel) = message.channelStatus, message.bytes.count == 3 else { return }
        if kind == 0xB0 {
            let key = channel * 128 + Int(message.bytes[1])
            let wasHeld = held.contains(key)
            if message.bytes[2] >= 64 { held.insert(key) } else { held.remove(key) }
            if wasHeld { return }
        }
        if trigger.matches(message) { onMarker?(message.frame) }
    }

    // MARK: Failures and losses

    private func fail(path: String, _ reason: String, frame: Int64) {
        messages.post(Phrase(verbatim: "MIDI: \(reason); \(path) keeps what it had, and the audio goes on"))
        events?.emit(.midiFailed, frame: frame, [("path", .string(path)), ("reason", .string(reason))])
    }

    private func noteAssemblyLosses() {
        let inputs = settings.trackNames.count
        totals.withLock { t in
            for p in 0..<inputs {
                t.malformed[p] = assembler.malformed[p]
                t.unrecordable[p] = assembler.unrecordable[p]
            }
        }
    }
}
