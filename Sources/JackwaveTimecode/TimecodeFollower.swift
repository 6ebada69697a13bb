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
/// it then waits, a bounded time, for the code just after that frame.
public final class TimecodeFollower: StreamTimecode, @unchecked Sendable {
    private let ring: SPSCRing<Float>
    private let gaps: SPSCRing<DropEvent>
    private let sampleRate: Int
    /// The reader (touched only under `readerLock`) and how far it has read, shared with the
    /// writer's questions.
    private let reader: LTCReader
    private let readerLock = Mutex(())
    private let fed = Atomic<Int64>(0)
    private let thread = PollingThread(name: "jackwave-ltc", passMicroseconds: passMicroseconds)
    /// The stream frame after the last sample read (the thread's own).
    private var position: Int64 = 0
    /// Told of each lock, loss and jump, with the stream frame it happened at (this thread).
    private let onEvent: @Sendable (LTCEvent) -> Void

    /// A pass every 20 ms: the reader stays within a frame of code of the callback.
    static let passMicroseconds = 20_000
    /// How far past a frame the code must have been read before its timecode is trusted:
    /// a quarter second holds the frames a lock or a jump needs to be confirmed.
    var lookahead: Int64 { Int64(sampleRate / 4) }
    /// Without a lock there, how much further it may read looking for one (a source that
    /// starts late, a level that the gain must first find), and the longest the writer waits.
    var searchLimit: Int64 { Int64(sampleRate) }
    static let longestWaitSeconds = 3.0

    public init(ring: SPSCRing<Float>, gaps: SPSCRing<DropEvent>, sampleRate: Int, onEvent: @escaping @Sendable (LTCEvent) -> Void) {
        self.ring = ring
        self.gaps = gaps
        self.sampleRate = sampleRate
        self.onEvent = onEvent
        reader = LTCReader(sampleRate: sampleRate)
    }

    public func start() {
        thread.start { [self] _ in position = pass(from: position) }
    }

    /// Reads what is left, then ends the thread; waits up to `timeout` seconds.
    public func stop(timeout: Double) -> Bool { thread.stop(timeout: timeout) }

    /// The code's state now, for the meter and the status.
    public var lock: LTCLock { readerLock.withLock { _ in reader.lock } }

    public func reading(atStreamFrame frame: Int64) -> TimecodeReading? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Self.longestWaitSeconds * 1e9)
        while !thread.isStopping && DispatchTime.now().uptimeNanoseconds < deadline {
            // `.acquiring`: pairs with the reader's `.releasing` store after each pass.
            let through = fed.load(ordering: .acquiring)
            if through >= frame + lookahead && (hasSegment || through >= frame + searchLimit) { break }
            usleep(UInt32(Self.passMicroseconds / 2))
        }
        return readerLock.withLock { _ in
            guard let segment = reader.segment(atStreamFrame: frame) else { return nil }
            return Self.reading(segment, at: frame, sampleRate: sampleRate)
        }
    }

    private var hasSegment: Bool { readerLock.withLock { _ in !reader.segments.isEmpty } }

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
            let events = readerLock.withLock { _ in
                var events = reader.feed(UnsafeBufferPointer(start: region.first, count: region.firstCount), atStreamFrame: position)
                if region.secondCount > 0 {
                    events += reader.feed(UnsafeBufferPointer(start: region.second, count: region.secondCount),
                                          atStreamFrame: position + Int64(region.firstCount))
                }
                return events
            }
            ring.commitRead(region.count)
            position += Int64(region.count)
            // `.releasing`: a writer that sees this position finds the reader past it.
            fed.store(position, ordering: .releasing)
            for event in events { onEvent(event) }
        }
        return position
    }

    /// Samples fed to the reader at a time.
    static let chunk = 4096
}
