import JackwaveDSP
import JackwaveRunSupport
import Synchronization

/// The frames a live stream gets: copies of what the recording writer wrote, through a ring
/// of the stream's own, so that the writer never waits for the stream. A region that does
/// not fit whole is dropped and counted (`droppedFrames`): a stream that fell behind skips
/// ahead rather than slow or cut the recording.
public final class StreamFeed: @unchecked Sendable {
    public let channels: Int
    public let sampleRate: Int
    /// The ring holds this much audio, in seconds, and at least the writer's own ring: a
    /// writer catching up after a stalled disk hands over up to its whole ring at once.
    public static let ringSeconds = 4.0
    /// Consumer side: the streamer's thread.
    let ring: SPSCRing<Float>
    /// Frames offered in all, taken or dropped: the stream's place on the recording's
    /// timeline. Written by the writer; read by the streamer for its events (relaxed: a
    /// lone counter, for reporting).
    let offeredFrames = Atomic<Int64>(0)
    /// Frames dropped because the ring was full (relaxed: a lone counter).
    let droppedFrames = Atomic<Int64>(0)
    /// The writer has offered its last frame. `.releasing`/`.acquiring`: the streamer that
    /// sees it also sees every frame committed before.
    let inputDone = Atomic<Bool>(false)
    /// Frames dropped so far, and offered in all (any thread; for reports).
    public var droppedFramesSoFar: Int64 { droppedFrames.load(ordering: .relaxed) }
    public var offeredFramesSoFar: Int64 { offeredFrames.load(ordering: .relaxed) }
    /// Wakes the streamer when frames arrive or the input ends.
    let arrived = WakeUp()
    /// The JACK server is away and the run waits for it: the streamer keeps its Icecast
    /// connection and sends silence at its own clock's pace, so that neither Icecast's source
    /// timeout nor the listeners drop it. Set by the main thread between two connections' writers
    /// (relaxed: a lone flag).
    let serverAway = Atomic<Bool>(false)

    /// The run waits for a JACK server (`true`), or has one again (`false`). Main thread.
    public func setServerAway(_ away: Bool) {
        serverAway.store(away, ordering: .relaxed)
        arrived.signal()
    }

    /// A feed of `channels` at `sampleRate`, for a writer whose own ring holds `writerFrames`.
    public init(channels: Int, sampleRate: Int, writerFrames: Int) {
        self.channels = channels
        self.sampleRate = sampleRate
        ring = SPSCRing(minimumCapacity: max(writerFrames, Int(Self.ringSeconds * Double(sampleRate))), width: channels)
    }

    // MARK: Producer (the writer thread)

    /// Copies `count` interleaved frames for the stream, or drops them all (counted) if the
    /// ring has no room for them. Never waits.
    public func offer(_ frames: UnsafePointer<Float>, count: Int) {
        guard let regions = claim(count) else { return }
        regions.update(from: frames, width: channels)
        commit(count)
    }

    /// Offers `count` frames of silence (a gap the writer filled in the file).
    public func offerSilence(_ count: Int) {
        guard let regions = claim(count) else { return }
        regions.update(repeating: 0, width: channels)
        commit(count)
    }

    /// The writer has no more frames (the recording ended).
    public func inputEnded() {
        inputDone.store(true, ordering: .releasing)
        arrived.signal()
    }

    private func claim(_ count: Int) -> RingRegions<Float>? {
        guard count > 0 else { return nil }
        let regions = ring.writableRegions(upTo: count)
        guard regions.count == count else {
            droppedFrames.add(Int64(count), ordering: .relaxed)
            offeredFrames.add(Int64(count), ordering: .relaxed)
            return nil
        }
        return regions
    }

    private func commit(_ count: Int) {
        ring.commitWrite(count)
        offeredFrames.add(Int64(count), ordering: .relaxed)
        arrived.signal()
    }
}

/// The writer hands the stream every frame it takes, and silence for frames dropped: a
/// listener hears what the archive holds.
extension StreamFeed: FrameSink {
    package func take(_ frames: UnsafePointer<Float>, count: Int, at frame: Int64) { offer(frames, count: count) }
    package func takeSilence(count: Int, at frame: Int64) { offerSilence(count) }
}
