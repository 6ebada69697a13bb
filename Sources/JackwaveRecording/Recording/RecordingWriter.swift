import CGlibcExtras
import Dispatch
import FoundationEssentials
import Glibc
import JackwaveDSP
import JackwaveRunSupport
import JackwaveSoundFiles
import Synchronization
import JackwaveVocabulary

/// The non-realtime thread that drains the audio ring into the recording's files, and hands
/// every frame to its sinks (`FrameSink`: the live loudness analysis, the live stream, the
/// alarms, the dropout detection, as the session plugs them in). Without files (`--loudness`
/// while only metering, `--stream` or `--silence` alone) it drains the ring for them alone.
///
/// It hands the ring's regions to the pipeline (which writes them without a copy unless it
/// converts the rate or rounds to 16/24 bits), fills announced gaps with silence so the
/// file's timeline stays true to wall time, and brings the file's header up to date often
/// enough that a reader after a crash or SIGKILL finds all but `crashBound` seconds of the
/// audio. At the end it flushes the pipeline (the resampler's tail). It never spins: between
/// passes it sleeps `pollInterval`, unless it has fallen behind.
public final class RecordingWriter: @unchecked Sendable {
    /// How the writer should end.
    public enum Stop: Int, Sendable {
        case running = 0, drainThenStop = 1, stopNow = 2
    }

    /// How long a pass may leave audio waiting, in seconds: 0.1 to 0.2, aiming at passes of
    /// `passBytes`. Why not always the same: a wake-up costs tens of microseconds of CPU on a
    /// virtual machine (a timer and a reschedule), so few channels want few passes (2 and
    /// 16 channels: 200-ms passes took the writer from 0.7–0.8 to 0.5 and from 1.1–1.4 to
    /// 0.9 ms of CPU a second against 100-ms ones), while many channels want small ones
    /// (64 channels, with the disk reserved ahead: 2.2 ms/s with 100-ms passes, 4.4 with
    /// 200; before that reservation: 3.4–3.7 with 100, 7–10 with 250, 4.4 with 40): a larger
    /// pass seems to hand the file audio that has already left the cache. All measured per
    /// thread (/proc schedstat) beside jack_capture.
    static let pollRange = 0.1...0.2
    /// Bytes of ring a pass should hand over at most, while `pollRange` allows: 1 MiB, where
    /// the 64-channel measurements above put the turn (1.2 MB good, 2.4 MB bad).
    static let passBytes = 1 << 20
    /// Sleep between passes, in microseconds: from `pollRange` and `passBytes`, or an eighth
    /// of a smaller ring's length (`--buffer`), so the sleep never lets the ring fill; at
    /// least 1 ms. A stop request wakes the writer at once.
    let pollInterval: UInt32
    /// The most audio a crash or SIGKILL may hide from a reader of the file, in seconds: what
    /// arrived after the start of the pass whose header was last refreshed. The header is
    /// refreshed often enough to keep within it while the writer keeps up (every third or
    /// fourth pass at 100 ms, every pass at 200 ms); scheduling delays come on top, and a
    /// writer held up by a stalled disk can leave up to the whole ring unseen.
    public static let crashBound = 0.5
    /// The share of the ring's free time a file's start may spend waiting for its timecode
    /// (`--ltc`, `StreamTimecode`): the ring fills meanwhile, and a quarter of what is free
    /// leaves three quarters for the next wait and the disk, so that waiting for the code
    /// can never cost audio, whatever `--buffer` is and however many files a pass begins.
    static let timecodeWaitShare = 0.25
    /// Signalled by `requestStop`, so that a sleeping writer starts its drain at once.
    private let wakeUp = DispatchSemaphore(value: 0)

    /// The files' side; nil when only the analysis is fed.
    package let pipeline: RecordingPipeline?
    /// Armed: decides which frames go into takes; nil records every frame.
    let takes: (any TakeGate)?
    let ring: SPSCRing<Float>
    let drops: SPSCRing<DropEvent>
    let messages: MessageQueue
    let channels: Int
    /// Silence for the gaps (frames the server skipped), written `zeroFrames` at a time.
    let zeros: UnsafeMutablePointer<Float>
    /// At most 64 KiB of zeros whatever the channel count (4096 frames up to 4 channels, 256
    /// at 64): a gap is written in as many pieces as it needs, and a fixed 4096 frames held
    /// 1 MiB of zeros at 64 channels for a rare event (BENCHMARKS.md, footprint).
    let zeroFrames: Int

    /// Written by `finish`, read by the writer thread each pass (relaxed: a lone value).
    let stop = Atomic<Int>(Stop.running.rawValue)
    /// Header refreshes asked for out of turn (`refreshHeaders`, a session's save), and the
    /// last one done. Done is stored releasing after the header is written, and read
    /// acquiring, so that whoever sees its number done sees that header on disk.
    private let refreshesAsked = Atomic<Int>(0)
    private let refreshesDone = Atomic<Int>(0)
    /// Frames in the run's files (at the file rate, every connection's), silence included.
    /// Written by the writer thread only.
    public let framesWritten = Atomic<Int>(0)
    /// Frames taken from the ring and the gaps (this connection's stream), for the status.
    public let framesTaken = Atomic<Int>(0)
    /// The server's rate: drop events are placed and reported on its timeline.
    let inputRate: Int
    /// Set when a write failed; the message is in `failure`.
    public let failed = Atomic<Bool>(false)
    private let failureText = Mutex<String?>(nil)
    /// Which channels have carried any signal. Written by the writer thread; read by
    /// others only once `wait` has returned true (the thread's end orders the two).
    private var presence: SignalPresence
    private let thread = WorkerThread(name: "jackwave-writer")
    /// Test hook: the writer sleeps this long before each pass and writes at most
    /// `stalledPassFrames` per pass: a slow disk, for real, without a slow disk.
    let stallMicroseconds: UInt32
    static let stalledPassFrames = 4096
    /// Handed every frame taken, at the server's rate (armed or not: a stream carries the
    /// live feed), and the silence written for dropped frames, each placed on the run's
    /// timeline from `timelineBase` (this connection's frame 0). None makes the writer wait.
    let sinks: [any FrameSink]
    let timelineBase: Int64

    /// A writer for `pipeline`'s files (or for `sinks` alone), fed by `ring` (width = the
    /// channels) and `drops`, at the server's `inputRate`.
    package init(pipeline: RecordingPipeline?, ring: SPSCRing<Float>, drops: SPSCRing<DropEvent>, inputRate: Int,
                 messages: MessageQueue, sinks: [any FrameSink] = [], timelineBase: Int64 = 0, takes: (any TakeGate)?,
                 stallMicroseconds: UInt32 = 0) {
        precondition(pipeline != nil || !sinks.isEmpty)
        self.pipeline = pipeline
        self.sinks = sinks
        self.timelineBase = timelineBase
        self.takes = takes
        self.ring = ring
        self.drops = drops
        self.messages = messages
        self.channels = ring.width
        self.inputRate = inputRate
        self.stallMicroseconds = stallMicroseconds
        let rate = Double(inputRate)
        let bytesPerSecond = Double(channels * MemoryLayout<Float>.size) * rate
        let seconds = min(Self.pollRange.upperBound, max(Self.pollRange.lowerBound, Double(Self.passBytes) / bytesPerSecond))
        let ringSeconds = Double(ring.capacity) / rate
        pollInterval = UInt32(max(0.001, min(seconds, ringSeconds / 8)) * 1e6)
        presence = SignalPresence(channels: channels)
        zeroFrames = Swift.max(1, Swift.min(4096, 16384 / Swift.max(1, channels)))
        zeros = .allocate(capacity: zeroFrames * channels)
        zeros.initialize(repeating: 0, count: zeroFrames * channels)
    }

    deinit { zeros.deallocate() }

    /// The channels (from 0) whose every frame received was digital silence. Read only
    /// after `wait` has returned true.
    public var silentChannels: [Int] { presence.silentChannels }

    /// The message of the write error that stopped the writer, if any.
    public var failure: String? { failureText.withLock { $0 } }

    /// Starts the thread.
    public func start() {
        thread.start { [self] in run() }
    }

    /// Asks the thread to end: after draining what the ring holds, or at once. A later
    /// `.stopNow` upgrades a drain (a second Ctrl-C). Does not wait; see `wait(timeout:)`.
    public func requestStop(_ how: Stop) {
        stop.store(max(how.rawValue, stop.load(ordering: .relaxed)), ordering: .relaxed)
        wakeUp.signal()
    }

    /// Waits up to `timeout` seconds for the thread to end; true once it has. The file is
    /// closed, and so valid, when this returns true.
    public func wait(timeout: Double) -> Bool { thread.wait(timeout: timeout) }

    /// Has the writer write everything the ring holds now and bring the open file's header
    /// up to date at once, rather than within `crashBound`; waits up to `timeout` seconds.
    /// True once done: a reader then finds every frame received before the call. Any thread
    /// but the writer's.
    public func refreshHeaders(timeout: Double) -> Bool {
        let asked = refreshesAsked.add(1, ordering: .relaxed).newValue
        wakeUp.signal()
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while refreshesDone.load(ordering: .acquiring) < asked {
            guard DispatchTime.now().uptimeNanoseconds < deadline, !failed.load(ordering: .relaxed) else { return false }
            usleep(500)
        }
        return true
    }

    private func run() {
        // Asked on this thread, the ring's consumer, whenever a file begins.
        pipeline?.files.timecodeWaitBudget = { [ring, inputRate] in
            Double(ring.capacity - ring.readableCount) / Double(inputRate) * Self.timecodeWaitShare
        }
        // An unarmed connection is one segment from its frame 0; takes make their own.
        if takes == nil, let pipeline, !pipeline.beginSegment(atStreamFrame: 0) { recordFailure() }
        let poll = Double(pollInterval) / 1e6
        let framesPerPoll = Int(poll * Double(inputRate))
        var lastHeader = DispatchTime.now().uptimeNanoseconds
        while true {
            let mode = stop.load(ordering: .relaxed)
            if mode == Stop.stopNow.rawValue { break }
            if stallMicroseconds > 0 { usleep(stallMicroseconds) }
            // Read before the pass takes its snapshot of the ring, so the pass holds every
            // frame received before the request.
            let refreshAsked = refreshesAsked.load(ordering: .relaxed)
            let progressed = drainOnce()
            if failed.load(ordering: .relaxed) { break }
            pipeline?.files.companion?.reached(timelineBase + Int64(framesTaken.load(ordering: .relaxed)))
            let draining = mode == Stop.drainThenStop.rawValue
            if draining && !progressed { break }
            // The next chance to refresh is a sleep and a pass away; refresh now unless the
            // audio unseen by then (since the last refresh, plus that sleep, plus a sleep's
            // worth of margin for the passes' own time) stays within the bound.
            // A monotonic clock: a wall clock stepped back must not stop the refreshes.
            let now = DispatchTime.now().uptimeNanoseconds
            let refreshWaiting = refreshAsked > refreshesDone.load(ordering: .relaxed)
            if refreshWaiting || Double(now - lastHeader) / 1e9 + 2 * poll > Self.crashBound {
                pipeline?.files.updateHeader()
                lastHeader = DispatchTime.now().uptimeNanoseconds
            }
            if refreshWaiting { refreshesDone.store(refreshAsked, ordering: .releasing) }
            // Behind (more than a sleep's worth arrived while writing, e.g. after a disk
            // stall): go on at once. Otherwise sleep, even after writing: what arrived during
            // the pass waits for the next one rather than making a write of a few frames.
            if !draining && ring.readableCount <= framesPerPoll {
                _ = wakeUp.wait(timeout: .now() + .microseconds(Int(pollInterval)))
            }
        }
        // After a failure the file is closed as it is; otherwise the resampler's tail is
        // flushed first, and the segment's length made exact. A take still open stays open
        // for a next connection (`TakeGate.finish`).
        if let pipeline {
            if failed.load(ordering: .relaxed) {
                pipeline.files.endSegment()
            } else if let takes {
                if !takes.finish() { recordFailure() }
            } else if !(pipeline.finishSegment() && pipeline.files.endSegment()) {
                recordFailure()
            }
            framesWritten.store(Int(pipeline.files.framesWritten), ordering: .relaxed)
        }
    }

    /// Writes what was in the ring when the pass began, with the gaps announced in it, and
    /// returns whether anything was written. Bounded, so that a pass ends even when the disk
    /// is slower than real time (the header refresh and a second Ctrl-C then still happen).
    private func drainOnce() -> Bool {
        // The audio count first, the gaps second. The callback announces a gap before the
        // audio that follows it (both `.releasing`), so when that audio is inside this
        // snapshot (`.acquiring`), its gap is visible below; audio published later waits
        // for the next pass. Read the other way round, audio after a gap could be written
        // in the gap's place.
        var available = ring.readableCount
        var progressed = false
        while !failed.load(ordering: .relaxed) && stop.load(ordering: .relaxed) != Stop.stopNow.rawValue {
            let gap = drops.readableRegions(upTo: 1)
            let position = Int64(framesTaken.load(ordering: .relaxed))
            if gap.count == 1 && gap.first.pointee.atFrame <= position {
                let event = gap.first.pointee
                // Never earlier: the audio before a gap is published before the gap.
                assert(event.atFrame == position, "gap at \(event.atFrame) behind the writer at \(position)")
                writeSilence(frames: event.count)
                drops.commitRead(1)
                let seconds = Double(event.atFrame) / Double(inputRate)
                messages.post(Phrase(verbatim: String(printf: "%lld frames dropped at %.3f s (the writer fell behind; silence written in their place)",
                                                   event.count, seconds)))
            } else {
                var limit = gap.count == 1 ? min(available, Int(gap.first.pointee.atFrame - position)) : available
                if let takes { limit = min(limit, takes.coveredFrames(from: position)) }
                let n = limit > 0 ? writeAudio(upTo: limit) : 0
                if n == 0 { break }
                available -= n
            }
            progressed = true
            if stallMicroseconds > 0 { break }
        }
        return progressed
    }

    /// Writes up to `limit` frames from the ring; returns frames written.
    private func writeAudio(upTo limit: Int) -> Int {
        let r = ring.readableRegions(upTo: stallMicroseconds > 0 ? min(limit, Self.stalledPassFrames) : limit)
        guard r.count > 0 else { return 0 }
        presence.observe(r.first, frames: r.firstCount)
        if r.secondCount > 0 { presence.observe(r.second, frames: r.secondCount) }
        let at = timelineBase + Int64(framesTaken.load(ordering: .relaxed))
        guard put(r.first, frames: r.firstCount) else { return 0 }
        if r.secondCount > 0 { guard put(r.second, frames: r.secondCount) else { return 0 } }
        for sink in sinks {
            sink.take(r.first, count: r.firstCount, at: at)
            if r.secondCount > 0 { sink.take(r.second, count: r.secondCount, at: at + Int64(r.firstCount)) }
        }
        ring.commitRead(r.count)
        return r.count
    }

    private func writeSilence(frames: Int64) {
        var left = frames
        while left > 0 && !failed.load(ordering: .relaxed) {
            let n = Int(min(left, Int64(zeroFrames)))
            let at = timelineBase + Int64(framesTaken.load(ordering: .relaxed))
            guard put(zeros, frames: n) else { return }
            for sink in sinks { sink.takeSilence(count: n, at: at) }
            left -= Int64(n)
        }
    }

    /// Hands frames to the takes or the pipeline, with the failure recorded once.
    private func put(_ frames: UnsafePointer<Float>, frames count: Int) -> Bool {
        framesTaken.add(count, ordering: .relaxed)
        guard let pipeline else { return true }
        let ok = takes?.push(frames, count: count) ?? pipeline.push(frames, count: count)
        framesWritten.store(Int(pipeline.files.framesWritten), ordering: .relaxed)
        if !ok { recordFailure() }
        return ok
    }

    private func recordFailure() {
        let message = pipeline?.failure ?? "write failed"
        failureText.withLock { $0 = message }
        failed.store(true, ordering: .relaxed)
    }
}
