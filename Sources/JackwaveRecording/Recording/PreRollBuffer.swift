import JackwaveDSP

/// The last `capacity` frames of interleaved audio, overwritten oldest first: the pre-roll
/// an armed recorder keeps while it waits for a take.
///
/// Its memory is mapped, populated and locked (where the memlock limit allows) when it is
/// built, so keeping it costs no page fault and no allocation later. One thread only (the
/// recording writer); not thread-safe.
public final class PreRollBuffer {
    /// Frames it holds at most.
    public let capacity: Int
    /// Samples per frame.
    public let channels: Int
    /// Frames it holds now (at most `capacity`).
    public private(set) var count = 0
    private let storage: UnsafeMutablePointer<Float>
    private let byteCount: Int
    /// Where the next frame goes (a frame index below `capacity`).
    private var head = 0

    /// Room for `capacity` frames of `channels` samples (a capacity of 0 keeps nothing).
    public init(capacity: Int, channels: Int) {
        precondition(capacity >= 0 && channels > 0)
        self.capacity = capacity
        self.channels = channels
        byteCount = max(1, capacity * channels) * MemoryLayout<Float>.stride
        storage = PinnedMemory.allocate(byteCount: byteCount).bindMemory(to: Float.self, capacity: max(1, capacity * channels))
    }

    deinit { PinnedMemory.release(UnsafeMutableRawPointer(storage), byteCount: byteCount) }

    /// Bytes a buffer of `frames` frames of `channels` samples maps and locks.
    public static func bytes(frames: Int, channels: Int) -> Int { frames * channels * MemoryLayout<Float>.stride }

    /// Keeps `frames` more frames; the oldest beyond `capacity` are forgotten.
    public func append(_ source: UnsafePointer<Float>, frames: Int) {
        guard capacity > 0, frames > 0 else { return }
        // Only the last `capacity` of them can stay.
        let skip = max(0, frames - capacity)
        var from = source + skip * channels
        var left = frames - skip
        while left > 0 {
            let n = min(left, capacity - head)
            (storage + head * channels).update(from: from, count: n * channels)
            head = (head + n) % capacity
            from += n * channels
            left -= n
        }
        count = min(capacity, count + frames - skip)
    }

    /// Hands the last `frames` frames held (at most `count`), oldest first, to `body` in
    /// at most two contiguous pieces.
    public func withLast(_ frames: Int, _ body: (UnsafePointer<Float>, Int) -> Void) {
        let n = min(frames, count)
        guard n > 0 else { return }
        let start = (head - n + capacity) % capacity
        let first = min(n, capacity - start)
        body(storage + start * channels, first)
        if n > first { body(storage, n - first) }
    }

    /// Forgets everything held.
    public func clear() {
        count = 0
        head = 0
    }
}
