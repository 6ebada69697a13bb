import Dispatch
import JackwaveDSP
import JackwaveRecording
import JackwaveRunSupport
import JackwaveVocabulary
import Synchronization

/// The thread MIDI runs on, `jackwave-midi`, one for the whole run: it drains the MIDI ring
/// and writes the `.mid` files (`MidiRecorder`), so that a slow or failing MIDI file, a
/// stuck library or a burst of MIDI never holds up the audio writer, which only tells it
/// what it needs to know through the hand-off (`MidiHandOff`): a file began or ended, the
/// frame it reached, a refresh is due.
///
/// With `--record take.mid` no writer runs: the thread follows each connection's callback
/// itself (`EngineSignals.streamFrames`), which publishes a cycle's events before its position.
///
/// A pass every 100 ms: the MIDI ring holds ten seconds (`midiRingRecords` in the session),
/// and a file's end waits at most a pass for its `.mid`. The open files are written every
/// 250 ms and when the writer asks, well inside the half second a crash may hide.
public final class MidiThread: @unchecked Sendable {
    public let recorder: MidiRecorder
    package let handOff: MidiHandOff
    static let passMicroseconds = 100_000
    static let refreshEvery = 0.25
    private let thread = PollingThread(name: "jackwave-midi", passMicroseconds: passMicroseconds)
    private let messages: MessageQueue
    private let events: EventLog?

    // The thread's own.
    /// The callback followed when no writer tells the frame reached (`--record take.mid`).
    private var follows: (signals: EngineSignals, timelineBase: Int64)?
    private var lastRefresh: UInt64 = 0
    private var refreshesDone = 0
    private var stoppedRecorder = false
    /// Set by `stop` when the thread did not end in time (relaxed: a lone flag): it then
    /// writes nothing more, at the latest once what it is doing returns.
    private let abandoned = Atomic<Bool>(false)

    /// Why MIDI stopped for the run, and at what frame, if it did; for the summary.
    private let stopNote = Mutex<(reason: String, frame: Int64)?>(nil)

    package init(recorder: MidiRecorder, messages: MessageQueue, events: EventLog?,
                handOffCapacity: Int = MidiHandOff.defaultCapacity) {
        self.recorder = recorder
        self.messages = messages
        self.events = events
        handOff = MidiHandOff(messages: messages, events: events, capacity: handOffCapacity)
    }

    /// What the audio's files tell (`RecordingFiles`' companion).
    package var companion: any RecordingCompanion { handOff }

    /// Starts the thread. Main thread, after `MidiRecorder.beginAlone` if any: from here on
    /// only the thread touches the recorder.
    public func start() {
        lastRefresh = DispatchTime.now().uptimeNanoseconds
        thread.start { [self] last in pass(last: last) }
    }

    /// A connection's MIDI ring and its frame 0 on the run's timeline; `follows` its
    /// callback's position when no writer runs. Main thread, before the connection's writer
    /// starts.
    public func attach(ring: SPSCRing<MidiRecord>, timelineBase: Int64, follows signals: EngineSignals?) {
        handOff.attach(ring: ring, timelineBase: timelineBase, follows: signals)
    }

    /// The end of `--record take.mid` at the run's last frame. Main thread, once the last
    /// connection has ended.
    public func endAlone(path: String, frames: Int64) {
        _ = handOff.fileEnded(recorder.aloneFile(path: path, frames: frames))
    }

    /// Ends the thread after a last pass (every notice posted before is handled); waits up
    /// to `timeout` seconds. False if it did not end in time: then MIDI is stopped for the
    /// run (nothing waits for a `.mid` any more), said as a line and a `midi_failed` event
    /// at `frame`; the audio's files are complete and closed whatever the MIDI thread does.
    public func stop(timeout: Double, frame: Int64) -> Bool {
        guard !thread.stop(timeout: timeout) else { return true }
        abandoned.store(true, ordering: .relaxed)
        handOff.stop()
        let reason = "the MIDI thread did not end within \(Int(timeout)) s (a slow disk or a stuck library holds it)"
        note(reason, frame: frame)
        messages.post(Phrase(verbatim: "MIDI: \(reason): the .mid files keep what they had; the audio is complete"))
        events?.emit(.midiFailed, frame: frame, [("path", .string("")), ("reason", .string(reason))])
        return false
    }

    /// Why MIDI stopped before the end of the run, and the frame, nil if it did not.
    public var stopped: (reason: String, frame: Int64)? { stopNote.withLock { $0 } }

    private func note(_ reason: String, frame: Int64) {
        stopNote.withLock { if $0 == nil { $0 = (reason, frame) } }
    }

    private func pass(last: Bool) {
        // Before the notices: every notice posted before the overflow, or before the
        // writer's position, is among those taken below.
        let overflowed = handOff.hasOverflowed
        let posted = handOff.reachedFrame.load(ordering: .acquiring)
        let refreshAsked = handOff.refreshesAsked.load(ordering: .relaxed)
        while !abandoned.load(ordering: .relaxed), let notice = handOff.next() {
            switch notice {
            case let .began(file):
                recorder.fileBegan(file)
            case let .ended(file, ticket):
                recorder.fileEnded(file)
                handOff.finished(ticket)
            case let .attach(ring, timelineBase, signals):
                // The last connection's callback has stopped: its position is final.
                if let follows { recorder.reached(follows.timelineBase + Int64(follows.signals.streamFrames.load(ordering: .acquiring))) }
                recorder.attach(ring: ring, timelineBase: timelineBase)
                follows = signals.map { ($0, timelineBase) }
            }
        }
        // `.acquiring`: pairs with the callback's `.releasing` store, so every event before
        // this position is in the ring.
        let reached = follows.map { $0.timelineBase + Int64($0.signals.streamFrames.load(ordering: .acquiring)) } ?? posted
        if overflowed && !stoppedRecorder {
            // Said by the writer as it happened; what was in the files stays.
            stoppedRecorder = true
            recorder.reached(reached)
            recorder.stop()
            handOff.stop()
            note("the MIDI thread fell \(handOff.capacity) notices behind the audio's files", frame: reached)
        }
        guard !abandoned.load(ordering: .relaxed) else { return }
        recorder.reached(reached)
        let now = DispatchTime.now().uptimeNanoseconds
        if last {
            recorder.finishRun()
        } else if refreshAsked > refreshesDone || Double(now - lastRefresh) / 1e9 >= Self.refreshEvery {
            recorder.refresh()
            lastRefresh = now
            refreshesDone = refreshAsked
        }
    }
}
