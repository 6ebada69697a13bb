import Glibc
import Synchronization

/// A lock-free single-producer/single-consumer ring of fixed-width slots.
///
/// A slot is `width` elements (one interleaved frame, or one block's peaks); the capacity is
/// a power of two, so a slot never straddles the wrap and the ring moves whole frames or
/// nothing. One thread writes (`writableRegions`/`commitWrite`), another reads
/// (`readableRegions`/`commitRead`); neither blocks, allocates or makes a syscall. Indices
/// are free-running `Int`s (at 192 kHz, 1.5 million years to wrap); a slot is at `index & mask`.
///
/// Each index has its own cache line (`RingSide`) after the slots, away from the object's
/// `let` fields, which both threads only read.
public final class SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    /// Elements per slot (channels for audio).
    public let width: Int
    /// Capacity in slots; a power of two.
    public let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let storage: UnsafeMutablePointer<Element>

    /// The producer's line: `published` is the write index (slots ever written),
    /// `otherSeen` the producer's copy of the read index.
    @usableFromInline let producer: UnsafeMutablePointer<RingSide>
    /// The consumer's line: `published` is the read index (slots ever read), `otherSeen`
    /// the consumer's copy of the write index.
    @usableFromInline let consumer: UnsafeMutablePointer<RingSide>

    /// A ring of at least `minimumCapacity` slots of `width` elements, all bits zero.
    ///
    /// The storage is `PinnedMemory`, so no page fault waits for the realtime thread; the two
    /// index lines follow the slots in the same mapping, at a multiple of `RingSide.lineBytes`,
    /// so they are pinned too and share no line (nor prefetch pair) with a slot.
    public init(minimumCapacity: Int, width: Int) {
        precondition(width > 0 && minimumCapacity > 0)
        var cap = 1
        while cap < minimumCapacity { cap <<= 1 }
        self.width = width
        self.capacity = cap
        self.mask = cap - 1
        let line = RingSide.lineBytes
        precondition(MemoryLayout<RingSide>.size <= line)
        let slotBytes = cap * width * MemoryLayout<Element>.stride
        let linesOffset = (slotBytes + line - 1) / line * line
        byteCount = linesOffset + 2 * line
        // Page-aligned, so the lines are aligned to `line` too.
        let mapping = PinnedMemory.allocate(byteCount: byteCount)
        storage = mapping.bindMemory(to: Element.self, capacity: cap * width)
        producer = (mapping + linesOffset).bindMemory(to: RingSide.self, capacity: 1)
        producer.initialize(to: RingSide())
        consumer = (mapping + linesOffset + line).bindMemory(to: RingSide.self, capacity: 1)
        consumer.initialize(to: RingSide())
    }

    /// Bytes mapped for `storage` and the two index lines.
    let byteCount: Int

    deinit {
        producer.deinitialize(count: 1)
        consumer.deinitialize(count: 1)
        PinnedMemory.release(storage, byteCount: byteCount)
    }

    /// Slots the producer may write now (loads the read index afresh). Producer thread only.
    @inlinable @inline(__always)
    public var writableCount: Int {
        // `.relaxed`: this thread's own index, which only it stores.
        let written = producer.pointee.published.load(ordering: .relaxed)
        return capacity - (written - reloadReadIndex())
    }

    /// Slots the consumer may read now (loads the write index afresh). Consumer thread only.
    @inlinable @inline(__always)
    public var readableCount: Int {
        // `.relaxed`: the consumer's own index, which only this thread stores.
        let read = consumer.pointee.published.load(ordering: .relaxed)
        return reloadWriteIndex() - read
    }

    /// Slots filled now, from any thread: a display figure, stale as soon as it is read.
    public var approximateFill: Int {
        // `.relaxed` both: nothing is read on the strength of this figure.
        max(0, producer.pointee.published.load(ordering: .relaxed)
                - consumer.pointee.published.load(ordering: .relaxed))
    }

    /// Up to `count` free slots as at most two contiguous regions (the second at the start of
    /// storage); lengths in slots. Producer thread only. Judged from the cached read index,
    /// which can only be behind the real one; reloaded only when it shows too few.
    // realtime
    @inlinable @inline(__always)
    public func writableRegions(upTo count: Int) -> RingRegions<Element> {
        let side = producer
        // `.relaxed`: own index, stored only by this thread.
        let written = side.pointee.published.load(ordering: .relaxed)
        var free = capacity - (written - side.pointee.otherSeen)
        if free < count { free = capacity - (written - reloadReadIndex()) }
        return regions(start: written, count: min(count, free))
    }

    /// Publishes `count` slots written through `writableRegions`. Producer thread only.
    // realtime
    @inlinable @inline(__always)
    public func commitWrite(_ count: Int) {
        let index = producer
        // Load `.relaxed`: own index. Store `.releasing`: the slots written before it must be
        // visible to a consumer that sees the new index (its `.acquiring` load).
        index.pointee.published.store(index.pointee.published.load(ordering: .relaxed) &+ count,
                                      ordering: .releasing)
    }

    /// Up to `count` filled slots as at most two contiguous regions. Consumer thread only.
    /// Judged from the cached write index; reloaded when it shows too few (always, for the
    /// default `count`).
    @inlinable @inline(__always)
    public func readableRegions(upTo count: Int = .max) -> RingRegions<Element> {
        let side = consumer
        // `.relaxed`: own index, stored only by this thread.
        let read = side.pointee.published.load(ordering: .relaxed)
        var filled = side.pointee.otherSeen - read
        if filled < count { filled = reloadWriteIndex() - read }
        return regions(start: read, count: min(count, filled))
    }

    /// Releases `count` slots read through `readableRegions`. Consumer thread only.
    @inlinable @inline(__always)
    public func commitRead(_ count: Int) {
        let index = consumer
        // Load `.relaxed`: own index. Store `.releasing`: this thread's reads of the slots
        // finish before the producer, seeing the new index (`.acquiring`), writes over them.
        index.pointee.published.store(index.pointee.published.load(ordering: .relaxed) &+ count,
                                      ordering: .releasing)
    }

    /// Loads the read index and keeps it as the producer's copy. Producer thread only.
    // realtime
    @inlinable @inline(__always)
    func reloadReadIndex() -> Int {
        // `.acquiring`: pairs with `commitRead`'s `.releasing` store, so the consumer is done
        // reading the slots before this thread overwrites them.
        let read = consumer.pointee.published.load(ordering: .acquiring)
        producer.pointee.otherSeen = read
        return read
    }

    /// Loads the write index and keeps it as the consumer's copy. Consumer thread only.
    @inlinable @inline(__always)
    func reloadWriteIndex() -> Int {
        // `.acquiring`: pairs with `commitWrite`'s `.releasing` store, so slots published up to
        // this load (and later read on the strength of the copy) are visible.
        let written = producer.pointee.published.load(ordering: .acquiring)
        consumer.pointee.otherSeen = written
        return written
    }

    /// Writes `slots` (a whole number of slots, `slots.count % width == 0`) if they all fit;
    /// returns false and writes nothing otherwise. Producer thread only.
    @inlinable
    public func write(_ slots: UnsafeBufferPointer<Element>) -> Bool {
        let n = slots.count / width
        guard n > 0 else { return true } // an empty buffer may have no base address
        let r = writableRegions(upTo: n)
        guard r.count == n else { return false }
        r.update(from: slots.baseAddress!, width: width)
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

    // realtime
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

    // realtime
    @inlinable
    public init(first: UnsafeMutablePointer<Element>, firstCount: Int,
                second: UnsafeMutablePointer<Element>, secondCount: Int) {
        self.first = first; self.firstCount = firstCount
        self.second = second; self.secondCount = secondCount
    }
}

extension RingRegions {
    /// Fills the regions, `width` elements a slot, from the contiguous elements at `source`.
    @inlinable @inline(__always)
    public func update(from source: UnsafePointer<Element>, width: Int) {
        first.update(from: source, count: firstCount * width)
        if secondCount > 0 { second.update(from: source + firstCount * width, count: secondCount * width) }
    }

    /// Sets every element of the regions (`width` a slot) to `value`.
    @inlinable @inline(__always)
    public func update(repeating value: Element, width: Int) {
        first.update(repeating: value, count: firstCount * width)
        second.update(repeating: value, count: secondCount * width)
    }
}
