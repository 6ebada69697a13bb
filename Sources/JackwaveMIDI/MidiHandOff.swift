import Dispatch
import Glibc
import JackwaveDSP
import JackwaveRecording
import JackwaveRunSupport
import JackwaveVocabulary
import Synchronization

/// What the audio writer tells the MIDI thread (`MidiThread`), handed over without ever
/// making the writer wait: a file began or ended (`RecordingCompanion`), the writer reached a
/// frame, a refresh is due; and, from the main thread between connections, the next
/// connection's MIDI ring.
///
/// Begins, ends and rings go through a bounded queue, one producer and one consumer, lock-free
/// in the manner of rigtorp's SPSCQueue: the producer is the writer thread, or the main thread
/// while no writer runs (a connection's writer starts after the main thread's last post and
/// ends before its next, which orders them). The frame reached and the refreshes asked are
/// single values the producer overwrites, so they never fill anything.
///
/// A begin or an end that finds the queue full is never dropped silently: MIDI stops for the
/// rest of the run, said at once by the producer (a line and a `midi_failed` event, since
/// the MIDI thread is what is late), and every later notice is counted as lost. The audio
/// does not wait.
package final class MidiHandOff: RecordingCompanion, @unchecked Sendable {
    package enum Notice {
        case began(RecordedFile)
        /// `ticket` is what `waitUntilFinished` waits for.
        case ended(RecordedFile, ticket: Int)
        /// A connection's MIDI ring and its frame 0 on the run's timeline; `follows` is its
        /// callback's position, which the MIDI thread follows itself when no writer tells it
        /// (`--record take.mid`).
        case attach(ring: SPSCRing<MidiRecord>, timelineBase: Int64, follows: EngineSignals?)
    }

    /// Notices waiting at most: 8192, the begin and end of 4096 files, more than the hour
    /// of one-second pieces the file finisher's queue holds (`FileFinisher.queueCapacity`).
    /// A working MIDI thread takes them within a pass (100 ms); only a thread held for a
    /// long time (a dead disk, a stuck library) with files cut fast (a remote's splits)
    /// fills it. A few hundred kB at most.
    package static let defaultCapacity = 8192

    package let capacity: Int
    private let mask: Int
    private let slots: UnsafeMutablePointer<Notice?>
    /// Notices ever posted (stored by the producer, `.releasing` after the slot is written)
    /// and ever taken (stored by the consumer, `.releasing` after the slot is emptied): each
    /// side loads the other's `.acquiring`, so a slot is read only once written, and
    /// written again only once emptied.
    private let posted = Atomic<Int>(0)
    private let taken = Atomic<Int>(0)

    /// The writer's position on the run's timeline (`reached`): stored `.releasing` after
    /// every notice before it is posted, loaded `.acquiring` by the MIDI thread before it
    /// takes the notices, so that a file that begins before that frame is among them.
    package let reachedFrame = Atomic<Int64>(0)
    /// Refreshes asked for (`refresh`): a lone counter (relaxed).
    package let refreshesAsked = Atomic<Int>(0)
    /// Set by the producer when a notice did not fit (`.releasing`, after the notices before
    /// it; the MIDI thread loads it `.acquiring` before taking them, and stops after them).
    private let overflow = Atomic<Bool>(false)
    /// Notices lost to the overflow, and the first one's `.mid` (for the summary).
    package let lostNotices = Atomic<Int>(0)
    /// The last end ticket the MIDI thread has handled (`.releasing` once that file's `.mid`
    /// is written, `.acquiring` in `waitUntilFinished`).
    private let endsFinished = Atomic<Int>(0)
    /// Set once MIDI has stopped for the run (an overflow seen, or a MIDI thread that did not
    /// end in time): waiting for a `.mid` then ends at once (relaxed: a lone flag).
    private let stopped = Atomic<Bool>(false)
    /// End tickets given so far; the producer's own.
    private var endsPosted = 0

    private let messages: MessageQueue
    private let events: EventLog?

    package init(messages: MessageQueue, events: EventLog?, capacity: Int = MidiHandOff.defaultCapacity) {
        var size = 1
        while size < max(1, capacity) { size <<= 1 }
        self.capacity = size
        mask = size - 1
        slots = .allocate(capacity: size)
        slots.initialize(repeating: nil, count: size)
        self.messages = messages
        self.events = events
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    // MARK: The producer (the writer thread, or the main thread while no writer runs)

    package func fileBegan(_ file: RecordedFile) { post(.began(file), frame: file.firstFrame, beside: file.path) }

    package func fileEnded(_ file: RecordedFile) -> Int {
        endsPosted += 1
        post(.ended(file, ticket: endsPosted), frame: file.endFrame, beside: file.path)
        return endsPosted
    }

    package func reached(_ timelineFrame: Int64) {
        reachedFrame.store(timelineFrame, ordering: .releasing)
    }

    package func refresh() {
        refreshesAsked.add(1, ordering: .relaxed)
    }

    /// A connection's ring (main thread, before that connection's writer starts).
    package func attach(ring: SPSCRing<MidiRecord>, timelineBase: Int64, follows: EngineSignals?) {
        post(.attach(ring: ring, timelineBase: timelineBase, follows: follows), frame: timelineBase, beside: nil)
    }

    /// Queues `notice`, or, if the queue is full, stops MIDI for the run and says so (once).
    /// Never waits.
    private func post(_ notice: Notice, frame: Int64, beside audioPath: String?) {
        // `.relaxed`: once set, only this thread sets it.
        if overflow.load(ordering: .relaxed) {
            lostNotices.add(1, ordering: .relaxed)
            return
        }
        let next = posted.load(ordering: .relaxed)
        guard next - taken.load(ordering: .acquiring) < capacity else {
            overflow.store(true, ordering: .releasing)
            lostNotices.add(1, ordering: .relaxed)
            let path = audioPath.map { MidiRecordingSettings.midiPath(beside: $0) } ?? ""
            let reason = "\(capacity) notices of the audio's files wait for the MIDI thread, the most they may (a slow disk or a stuck library holds it)"
            messages.post(Phrase(verbatim: "MIDI: \(reason): MIDI stops here for the rest of the run; the .mid files keep what they had, and the audio goes on"))
            events?.emit(.midiFailed, frame: frame, [("path", .string(path)), ("reason", .string(reason))])
            return
        }
        slots[next & mask] = notice
        posted.store(next + 1, ordering: .releasing)
    }

    // MARK: The consumer (the MIDI thread)

    /// Whether a notice was lost: loaded before `next()` drains, so that the notices posted
    /// before the loss are all taken before MIDI stops.
    package var hasOverflowed: Bool { overflow.load(ordering: .acquiring) }

    /// The oldest notice waiting, nil when none waits.
    package func next() -> Notice? {
        let index = taken.load(ordering: .relaxed)
        guard index < posted.load(ordering: .acquiring) else { return nil }
        let notice = slots[index & mask]
        slots[index & mask] = nil
        taken.store(index + 1, ordering: .releasing)
        return notice
    }

    /// The file whose end had `ticket` is done with: its `.mid` is written (or failed, said).
    package func finished(_ ticket: Int) {
        endsFinished.store(ticket, ordering: .releasing)
    }

    /// MIDI has stopped for the run: nothing more will be written beside any file.
    package func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    // MARK: Anyone

    package var isStopped: Bool { stopped.load(ordering: .relaxed) || overflow.load(ordering: .relaxed) }

    /// Notices waiting now (a display figure: stale once read).
    package var waiting: Int { posted.load(ordering: .relaxed) - taken.load(ordering: .relaxed) }

    package func waitUntilFinished(_ ticket: Int, timeout: Double) -> Bool {
        // A monotonic clock: a wall clock stepped back must not stretch the wait.
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while endsFinished.load(ordering: .acquiring) < ticket {
            if isStopped { return true }
            guard DispatchTime.now().uptimeNanoseconds < deadline else { return false }
            usleep(1000)
        }
        return true
    }
}
