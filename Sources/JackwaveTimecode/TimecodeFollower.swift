import Dispatch
import Glibc
import JackwaveDSP
import JackwaveRecording
import JackwaveRunSupport
import JackwaveSoundFiles
import Synchronization

/// One connection's LTC input (`--ltc`), decoded on a thread of its own: the callback only
/// moves the samples (`RealtimeEngine.ltcRing`), and this thread feeds them to an
/// `LTCReader`, saying each lock, loss and jump as it happens. The writer asks it for the
/// timecode of a file's first frame (`StreamTimecode`), which may not have been decoded yet:
/// it then waits, as long as the writer says it can afford, for the code just after that
/// frame.
///
/// The reader is this thread's alone: after each chunk it publishes what the others may
/// ask (how far it has read, its stretches of code, its state) in `published`, a lock held
/// for a copy. So a reader stuck inside libltc, or a thread that stalls, holds up neither
/// the writer nor the main thread: they read the last copy, and the writer stops waiting
/// at once for a reader that has not made a pass for `stalledSeconds`.
public final class TimecodeFollower: StreamTimecode, @unchecked Sendable {
    private let ring: SPSCRing<Float>
    private let gaps: SPSCRing<DropEvent>
    private let sampleRate: Int
    /// The reader: this thread's only.
    private let reader: LTCReader
    /// What the reader has read, for the other threads.
    private struct Published {
        var fed: Int64 = 0
        var segments: [TimecodeSegment] = []
        var lock: LTCLock = .searching
    }
    private let published = Mutex(Published())
    /// When the thread last made a pass or fed a chunk (uptime nanoseconds;
    /// relaxed: a lone value, judged against a bound of half a second).
    private let aliveAt = Atomic<UInt64>(0)
    private let thread = PollingThread(name: "jackwave-ltc", passMicroseconds: passMicroseconds)
    /// The stream frame after the last sample read (the thread's own).
    private var position: Int64 = 0
    /// Told of each lock, loss and jump, with the stream frame it happened at (this thread).
    private let onEvent: @Sendable (LTCEvent) -> Void
    /// Test seam (`JACKWAVE_TEST_LTC_STALL_US`): the reader stops this long once, at the
    /// first samples, as a library stuck in a call would; 0 in every real run.
    private var stallMicroseconds: UInt32

    /// A pass every 20 ms: the reader stays within a frame of code of the callback.
    static let passMicroseconds = 20_000
    /// How far past a frame the code must have been read before its timecode is trusted:
    /// a quarter second holds the frames a lock or a jump needs to be confirmed.
    var lookahead: Int64 { Int64(sampleRate / 4) }
    /// Without a lock there, how much further it may read looking for one (a source that
    /// starts late, a level that the gain must first find), and the longest the writer waits
    /// whatever it could afford.
    var searchLimit: Int64 { Int64(sampleRate) }
    static let longestWaitSeconds = 3.0
    /// A reader that has made no pass for this long is stalled: nobody waits for it.
    static let stalledSeconds = 0.5
    /// How long the end of a connection waits for the reader's last pass: a stalled one is
    /// left behind, and the files' last timecode is what it had read.
    public static let endSeconds = 5.0

    public init(ring: SPSCRing<Float>, gaps: SPSCRing<DropEvent>, sampleRate: Int, stallMicroseconds: UInt32 = 0,
                onEvent: @escaping @Sendable (LTCEvent) -> Void) {
        self.ring = ring
        self.gaps = gaps
        self.sampleRate = sampleRate
        self.onEvent = onEvent
        self.stallMicroseconds = stallMicroseconds
        reader = LTCReader(sampleRate: sampleRate)
    }

    public func start() {
        aliveAt.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        thread.start { [self] _ in position = pass(from: position) }
    }

    /// Reads what is left, then ends the thread; waits up to `timeout` seconds.
    public func stop(timeout: Double) -> Bool { thread.stop(timeout: timeout) }

    /// The code's state now, for the meter and the status (as of the reader's last chunk).
    public var lock: LTCLock { published.withLock { $0.lock } }

    public func reading(atStreamFrame frame: Int64, waitingAtMost seconds: Double) -> TimecodeAnswer {
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(max(0, min(seconds, Self.longestWaitSeconds)) * 1e9)
        while !thread.isStopping {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { break }
            let (through, found) = published.withLock { ($0.fed, !$0.segments.isEmpty) }
            if through >= frame + lookahead && (found || through >= frame + searchLimit) { break }
            // A stalled reader will not read on in any wait the writer can afford.
            let alive = aliveAt.load(ordering: .relaxed)
            if now > alive && Double(now - alive) / 1e9 > Self.stalledSeconds { break }
            usleep(UInt32(Self.passMicroseconds / 2))
        }
        let (through, segments) = published.withLock { ($0.fed, $0.segments) }
        // Not read up to the frame: extrapolating the code over samples nobody has read
        // would be a guess; the wall clock says so instead. (Read up to it, the frame
        // itself is the next sample of what was read: a file's end at the run's end.)
        guard through >= frame else { return .late }
        guard let segment = segments.last(where: { $0.startFrame <= frame }) ?? segments.first,
              let reading = Self.reading(segment, at: frame, sampleRate: sampleRate) else { return .noCode }
        return .reading(reading)
    }

    /// The reading of `segment` at stream frame `frame`: its samples since midnight, not
    /// wrapped, and the label of the frame of code holding it.
    static func reading(_ segment: TimecodeSegment, at frame: Int64, sampleRate: Int) -> TimecodeReading? {
        let samples = segment.anchorSamples + Double(frame - segment.anchorFrame)
        let rate = segment.rate
        let perFrame = Double(sampleRate) * Double(rate.secondsPerFrame.numerator) / Double(rate.secondsPerFrame.denominator)
        let day = Double(86_400 * sampleRate)
        let wrapped = samples - (samples / day).rounded(.down) * day
        // A hair over, so that a frame's exact start is labelled as that frame.
        let index = Int(((wrapped + 1e-6) / perFrame).rounded(.down))
        guard let code = Timecode(framesSinceMidnight: index, rate: rate) else { return nil }
        return TimecodeReading(samples: samples, label: TimecodeLabel(rate: rate.ixmlRate, dropFrame: rate.isDropFrame, text: code.description),
                               stretch: Int(truncatingIfNeeded: segment.startFrame))
    }

    /// Feeds everything the callback has published, gaps skipped at their frames; returns
    /// the stream frame after the last sample read.
    private func pass(from start: Int64) -> Int64 {
        aliveAt.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        var position = start
        while true {
            // A gap is published before any sample after it: one starting here is skipped
            // (the reader counts its code as missing).
            let gap = gaps.readableRegions(upTo: 1)
            if gap.count == 1, gap.first.pointee.atFrame <= position {
                position = max(position, gap.first.pointee.atFrame + gap.first.pointee.count)
                gaps.commitRead(1)
                continue
            }
            let limit = gap.count == 1 ? Int(gap.first.pointee.atFrame - position) : Self.chunk
            let region = ring.readableRegions(upTo: min(Self.chunk, limit))
            guard region.count > 0 else { break }
            if stallMicroseconds > 0 {
                usleep(stallMicroseconds)
                stallMicroseconds = 0
            }
            var events = reader.feed(UnsafeBufferPointer(start: region.first, count: region.firstCount), atStreamFrame: position)
            if region.secondCount > 0 {
                events += reader.feed(UnsafeBufferPointer(start: region.second, count: region.secondCount),
                                      atStreamFrame: position + Int64(region.firstCount))
            }
            ring.commitRead(region.count)
            position += Int64(region.count)
            // A writer that sees this position finds the reader's stretches past it.
            let (segments, lock) = (reader.segments, reader.lock)
            published.withLock { $0 = Published(fed: position, segments: segments, lock: lock) }
            aliveAt.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            for event in events { onEvent(event) }
        }
        return position
    }

    /// Samples fed to the reader at a time.
    static let chunk = 4096
}
