import Dispatch
import FoundationEssentials
import Glibc
import JackwaveRecording
import JackwaveRunSupport
import JackwaveSoundFiles
import Synchronization
import JackwaveVocabulary

/// What happens to each file once the writer has finalized it, on a thread of its own so that
/// the writer never waits: what the companion writes beside it (its `.mid`, `--midi`) waited
/// for, its markers claimed, then cue points, picture (`--plot`), loudness, then its
/// `--on-close` command. One file at a time, in closing order. The queue is bounded: a file
/// that finds it full keeps its audio and is reported, but gets no cues, picture or hook. The
/// end of the run waits `endSeconds` for it at most (a huge file's picture, a stuck cairo):
/// what is left then is said, file by file, and the run exits 1; the audio is complete either
/// way.
///
/// Markers are claimed here rather than as the writer closes the file, because a MIDI marker
/// (`--midi-marker`) is dropped by the MIDI thread, which may be a pass behind the writer:
/// once the file's `.mid` is finished, every marker before its end has been dropped.
package final class FileFinisher: @unchecked Sendable {
    /// One closed file (closing failed or not: its markers are claimed in closing order
    /// either way), and the book its markers are claimed from.
    struct Job: Sendable {
        let file: RecordedFile
        let markers: MarkerBook
    }

    /// Files waiting at most: an hour of one-second pieces.
    static let queueCapacity = 3600
    /// How long a file waits for its companion's file (`.mid`) before its hook runs without
    /// it: the MIDI thread writes a `.mid` within a pass (100 ms) of the file's end, unless
    /// its disk or library is stuck. After one such wait, the next files do not wait for a
    /// late companion (each says so) until it has caught up.
    static let companionWait = 10.0

    let spec: RecordingSpec
    /// `--plot OUT`: each file's picture is OUT with the file's numbers (`FileNaming.companion`),
    /// drawn by `draw`.
    let pictures: (path: String, draw: PictureDrawing)?
    let hook: CloseHook?
    let events: EventLog?
    /// Retention (`--keep`, `--keep-space`): told when each file is done with, and prunes then.
    let keeper: FileKeeper?
    /// What writes beside each file (`--midi`), waited for before its hook.
    let companion: (any RecordingCompanion)?
    /// A companion's file was not finished within `companionWait`: the next files do not
    /// wait until it has caught up. The finisher thread's own.
    private var companionLate = false
    /// Per file and per take loudness, when asked for.
    private var loudness: FileLoudnessReport?
    /// Lines for the run to say (markers placed, pictures drawn, failures).
    package let messages = MessageQueue()
    private let queue = Mutex<(jobs: [Job], closing: Bool, refused: Int)>(([], false, 0))
    private let wake = DispatchSemaphore(value: 0)
    private let thread = WorkerThread(name: "jackwave-files")
    /// A picture could not be drawn (the run then exits 1; its files are complete).
    package let plotFailed = Atomic<Bool>(false)
    /// Seconds the end of the run gives the files still waiting: an hour-long stereo piece's
    /// loudness takes about 14 s (BENCHMARKS.md, Loudness: 260 times real time) and its
    /// picture a fraction of a second, so this is room, not a deadline a run should meet.
    package static let endSeconds = 60.0
    /// Set when the end stopped waiting (relaxed: a lone flag): the thread stops after the
    /// file in hand.
    private let abandoned = Atomic<Bool>(false)
    /// The file in hand, for the end's account of what was left.
    private let working = Mutex<RecordedFile?>(nil)
    /// Files left unfinished at the end (the run then exits 1). Read after `finish`.
    package private(set) var leftUnfinished = 0

    /// Finishes files of `spec`, drawing them to the companions of `pictures`' path and
    /// measuring their loudness if `measuresLoudness` (events to `events`), then queueing
    /// them for `hook`.
    package init(spec: RecordingSpec, pictures: (path: String, draw: PictureDrawing)?, measuresLoudness: Bool, events: EventLog?,
                 hook: CloseHook?, keeper: FileKeeper? = nil, companion: (any RecordingCompanion)? = nil) {
        self.spec = spec
        self.companion = companion
        self.pictures = pictures
        self.hook = hook
        self.events = events
        self.keeper = keeper
        loudness = measuresLoudness ? FileLoudnessReport() : nil
        thread.start { [self] in run() }
    }

    /// Whether any work is asked of it: cues are worth writing only where the format keeps
    /// them; otherwise a plot or a hook.
    static func isNeeded(plotPath: String?, hook: CloseHook?) -> Bool { plotPath != nil || hook != nil }

    /// Queues a finalized file (writer thread, or main thread at the end).
    func enqueue(_ job: Job) {
        let accepted = queue.withLock { q in
            guard q.jobs.count < Self.queueCapacity else {
                q.refused += 1
                return false
            }
            q.jobs.append(job)
            return true
        }
        if accepted {
            wake.signal()
        } else {
            messages.post("\(job.file.path): too many files waiting to be finished; its markers, picture and \(setting: .onClose) are left out")
        }
    }

    /// Finishes every queued file, then stops the thread; waits at most `within` seconds,
    /// then says each file left (`file_unfinished`) and lets the thread go.
    package func finish(within: Double = endSeconds) {
        queue.withLock { $0.closing = true }
        wake.signal()
        if thread.wait(timeout: within) { return }
        abandoned.store(true, ordering: .relaxed)
        let left = (working.withLock { $0 }.map { [$0] } ?? []) + queue.withLock { q in
            defer { q.jobs.removeAll() }
            return q.jobs.map(\.file)
        }
        leftUnfinished = left.count
        messages.post("the files' finishing did not end within \(within.plainText) s of the recording's end; \(counted(left.count, "file")) left without it")
        for file in left {
            messages.post("\(file.path): its markers, picture, loudness and \(setting: .onClose) are left out (the audio is complete)")
            events?.emit(.fileUnfinished, frame: file.endFrame, [("path", .string(file.path))])
        }
    }

    private func run() {
        while true {
            wake.wait()
            while let job = queue.withLock({ $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }) {
                if abandoned.load(ordering: .relaxed) { return }
                working.withLock { $0 = job.file }
                finish(job)
                working.withLock { $0 = nil }
            }
            if queue.withLock({ $0.closing && $0.jobs.isEmpty }) {
                if let done = loudness?.finishTake() { report(done, frame: nil) }
                return
            }
        }
    }

    /// Where the last file finished ended on the run's timeline.
    private var lastEnd: Int64 = 0

    private func finish(_ job: Job) {
        let file = job.file
        if let companion, let ticket = file.companionTicket {
            if companion.waitUntilFinished(ticket, timeout: companionLate ? 0 : Self.companionWait) {
                companionLate = false
            } else {
                companionLate = true
                messages.post("\(file.path): what is written beside it (its .mid) was not finished within \(Int(Self.companionWait)) s; its markers and \(setting: .onClose) go on without it")
            }
        }
        let markers = job.markers.claim(from: file.firstFrame, to: file.endFrame)
        guard file.ok else { return }
        lastEnd = file.endFrame
        if !markers.isEmpty { writeCues(markers, into: file) }
        if let pictures {
            let picture = spec.companion(pictures.path, for: file)
            switch pictures.draw(file.path, picture) {
            case let .success(drawn):
                messages.post(drawn == picture ? "plot: \(picture)" : "plot: \(picture) exists, so drawn as \(drawn)")
            case let .failure(error):
                messages.post("\(setting: .plot): \(error.message)")
                plotFailed.store(true, ordering: .relaxed)
            }
        }
        if loudness != nil {
            for done in loudness!.measure(file) { report(done, frame: file.endFrame) }
        }
        if let hook {
            // Kept from retention until its command has run (`CloseHook`'s `ran`).
            keeper?.protectForHook(file.path)
            hook.fileClosed(file.path, frame: file.endFrame)
        }
        keeper?.finished(file.path, frame: file.endFrame)
    }

    /// Says a loudness line and writes its event (at `frame`, or at the last file's end).
    private func report(_ result: (line: String, event: RunEventKind, fields: [(String, EventLog.Value)]), frame: Int64?) {
        messages.post(Phrase(verbatim: result.line))
        events?.emit(result.event, frame: frame ?? lastEnd, result.fields)
    }

    /// Writes the file's markers as cue points (rewriting it once), at their frames within it.
    private func writeCues(_ markers: [(number: Int, frame: Int64)], into file: RecordedFile) {
        let positions = markers.map { marker in
            min(spec.fileFrames(fromInputFrames: marker.frame - file.firstFrame), max(0, file.frames - 1))
        }
        for (marker, position) in zip(markers, positions) {
            let seconds = String(printf: "%.3f s", Double(marker.frame) / Double(spec.inputRate))
            messages.post("marker \(marker.number) at \(seconds): \(FileNames.lastComponent(file.path)) frame \(position)")
        }
        do throws(SoundFileError) {
            let identity = try SoundFile.addCues(positions, to: file.path)
            keeper?.rewritten(file.path, identity: identity)
        } catch {
            messages.post("markers not written into \(file.path): \(error.reason) (listed here only)")
        }
    }
}
