import Glibc
import Synchronization

/// A lock-free single-producer/single-consumer ring of fixed-width slots.
///
/// A *slot* is `width` consecutive elements: one interleaved audio frame (one sample per
/// channel), or one block's peaks. Capacity is counted in slots and is a power of two, so
/// the storage is a whole number of slots and a slot never straddles the wrap: the ring
/// moves whole frames or nothing, by construction.
///
/// One thread may write (`writableRegions`/`commitWrite`), one other thread may read
/// (`readableRegions`/`commitRead`); neither ever blocks, allocates or makes a syscall.
/// Indices are free-running `Int` counters (they never wrap in practice: 2^63 slots at
/// 192 kHz is 1.5 million years); the slot position is `index & mask`.
public final class SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    /// Elements per slot (channels for audio).
    public let width: Int
    /// Capacity in slots; a power of two.
    public let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let storage: UnsafeMutablePointer<Element>

    /// Slots ever written. Stored by the producer with `.releasing` so that the slot
    /// contents it wrote are visible to a consumer that loads it with `.acquiring`.
    @usableFromInline let writeIndex = Atomic<Int>(0)
    /// Slots ever read. Stored by the consumer with `.releasing` so that its reads of a
    /// slot happen before the producer, loading with `.acquiring`, overwrites it.
    @usableFromInline let readIndex = Atomic<Int>(0)

    /// Creates a ring that holds at least `minimumCapacity` slots of `width` elements, every
    /// element all-zero bits (0.0 for `Float`, a zero `PeakRecord` or `DropEvent`).
    ///
    /// The storage is `PinnedMemory`: every page exists before the first cycle (the kernel
    /// supplies them zeroed, with no pass over tens of megabytes to touch them), so no page
    /// fault waits for the realtime thread, and it is locked in memory where the limits
    /// allow (without the privilege a ring can still be paged out under memory pressure,
    /// as in any unprivileged audio program).
    public init(minimumCapacity: Int, width: Int) {
        precondition(width > 0 && minimumCapacity > 0)
        var cap = 1
        while cap < minimumCapacity { cap <<= 1 }
        self.width = width
        self.capacity = cap
        self.mask = cap - 1
        byteCount = cap * width * MemoryLayout<Element>.stride
        let mapping = PinnedMemory.allocate(byteCount: byteCount)
        storage = mapping.bindMemory(to: Element.self, capacity: cap * width)
    }

    /// Bytes mapped for `storage`.
    let byteCount: Int

    deinit { PinnedMemory.release(storage, byteCount: byteCount) }

    /// Slots the producer may write now. Producer thread only.
    @inlinable @inline(__always)
    public var writableCount: Int {
        // Own index: relaxed (only this thread stores it). Other index: acquiring, see above.
        capacity - (writeIndex.load(ordering: .relaxed) - readIndex.load(ordering: .acquiring))
    }

    /// Slots the consumer may read now. Consumer thread only.
    @inlinable @inline(__always)
    public var readableCount: Int {
        writeIndex.load(ordering: .acquiring) - readIndex.load(ordering: .relaxed)
    }

    /// Slots filled now, as seen from any thread (a display figure: by the time it is
    /// used either side may have moved on).
    public var approximateFill: Int {
        max(0, writeIndex.load(ordering: .relaxed) - readIndex.load(ordering: .relaxed))
    }

    /// Up to `count` free slots as at most two contiguous regions (the second starts at
    /// the beginning of storage). Lengths are in slots; each pointer addresses
    /// `length * width` elements. Producer thread only.
    @inlinable @inline(__always)
    public func writableRegions(upTo count: Int) -> RingRegions<Element> {
        let n = min(count, writableCount)
        return regions(start: writeIndex.load(ordering: .relaxed), count: n)
    }

    /// Publishes `count` slots written through `writableRegions`. Producer thread only.
    @inlinable @inline(__always)
    public func commitWrite(_ count: Int) {
        writeIndex.store(writeIndex.load(ordering: .relaxed) &+ count, ordering: .releasing)
    }

    /// Up to `count` filled slots as at most two contiguous regions. Consumer thread only.
    @inlinable @inline(__always)
    public func readableRegions(upTo count: Int = .max) -> RingRegions<Element> {
        let n = min(count, readableCount)
        return regions(start: readIndex.load(ordering: .relaxed), count: n)
    }

    /// Releases `count` slots read through `readableRegions`. Consumer thread only.
    @inlinable @inline(__always)
    public func commitRead(_ count: Int) {
        readIndex.store(readIndex.load(ordering: .relaxed) &+ count, ordering: .releasing)
    }

    /// Writes `slots` (a whole number of slots, `slots.count % width == 0`) if they all fit;
    /// returns false and writes nothing otherwise. Producer thread only.
    @inlinable
    public func write(_ slots: UnsafeBufferPointer<Element>) -> Bool {
        let n = slots.count / width
        guard n > 0 else { return true } // an empty buffer may have no base address
        let r = writableRegions(upTo: n)
        guard r.count == n else { return false }
        let firstElements = r.firstCount * width
        r.first.update(from: slots.baseAddress!, count: firstElements)
        if r.secondCount > 0 {
            r.second.update(from: slots.baseAddress! + firstElements, count: r.secondCount * width)
        }
        commitWrite(n)
        return true
    }

    /// Copies up to `into.count / width` slots out and returns how many slots it read.
    /// Consumer thread only.
    @inlinable
    public func read(into out: UnsafeMutableBufferPointer<Element>) -> Int {
        let r = readableRegions(upTo: out.count / width)
        guard r.count > 0 else { return 0 } // an empty buffer may have no base address
        let firstElements = r.firstCount * width
        out.baseAddress!.update(from: r.first, count: firstElements)
        if r.secondCount > 0 {
            (out.baseAddress! + firstElements).update(from: r.second, count: r.secondCount * width)
        }
        commitRead(r.count)
        return r.count
    }

    @inlinable @inline(__always)
    func regions(start: Int, count: Int) -> RingRegions<Element> {
        let position = start & mask
        let firstCount = min(count, capacity - position)
        return RingRegions(first: storage + position * width, firstCount: firstCount,
                           second: storage, secondCount: count - firstCount)
    }
}

/// At most two contiguous runs of ring slots; lengths in slots.
@frozen
public struct RingRegions<Element> {
    public let first: UnsafeMutablePointer<Element>
    public let firstCount: Int
    public let second: UnsafeMutablePointer<Element>
    public let secondCount: Int
    @inlinable public var count: Int { firstCount + secondCount }

    @inlinable
    public init(first: UnsafeMutablePointer<Element>, firstCount: Int,
                second: UnsafeMutablePointer<Element>, secondCount: Int) {
        self.first = first; self.firstCount = firstCount
        self.second = second; self.secondCount = secondCount
    }
}
