import Glibc
import JackwaveDSP
import Testing

/// Writes `values` (a whole number of slots) and expects the ring to take them all.
private func put(_ ring: SPSCRing<Int>, _ values: [Int]) -> Bool {
    values.withUnsafeBufferPointer { ring.write($0) }
}

/// Reads up to `slots` slots and returns their elements.
private func take(_ ring: SPSCRing<Int>, slots: Int) -> [Int] {
    var out = [Int](repeating: -1, count: slots * ring.width)
    let n = out.withUnsafeMutableBufferPointer { ring.read(into: $0) }
    return Array(out.prefix(n * ring.width))
}

@Suite("SPSCRing")
struct SPSCRingTests {
    @Test("capacity rounds the requested slot count up to a power of two",
          arguments: [(1, 1), (2, 2), (3, 4), (5, 8), (8, 8), (9, 16), (1000, 1024), (1024, 1024)])
    func capacityRoundsUp(requested: Int, expected: Int) {
        let ring = SPSCRing<Int>(minimumCapacity: requested, width: 3)
        #expect(ring.capacity == expected)
        #expect(ring.writableCount == expected)
    }

    @Test("a new ring is empty: nothing readable, and a read returns no slots")
    func newRingIsEmpty() {
        let ring = SPSCRing<Int>(minimumCapacity: 8, width: 1)
        #expect(ring.readableCount == 0)
        #expect(ring.readableRegions().count == 0)
        #expect(take(ring, slots: 4).isEmpty)
    }

    @Test("a full ring refuses a further write whole and keeps its contents")
    func fullRingRefusesWrites() {
        let ring = SPSCRing<Int>(minimumCapacity: 8, width: 1)
        #expect(put(ring, Array(0..<8)))
        #expect(ring.writableCount == 0)
        #expect(ring.readableCount == 8)
        #expect(ring.writableRegions(upTo: 1).count == 0)
        #expect(!put(ring, [99]))
        #expect(take(ring, slots: 100) == Array(0..<8))
        #expect(ring.readableCount == 0 && ring.writableCount == 8)
    }

    @Test("a write that does not fit entirely writes nothing")
    func partialWriteIsRefused() {
        let ring = SPSCRing<Int>(minimumCapacity: 4, width: 2)
        #expect(put(ring, [1, 2, 3, 4, 5, 6]))
        #expect(!put(ring, [7, 8, 9, 10])) // two slots, one free
        #expect(ring.readableCount == 3)
        #expect(take(ring, slots: 4) == [1, 2, 3, 4, 5, 6])
    }

    @Test("writing or reading zero slots through empty buffers does nothing")
    func emptyTransfers() {
        let ring = SPSCRing<Int>(minimumCapacity: 4, width: 1)
        #expect(ring.write(UnsafeBufferPointer(start: nil, count: 0)))
        #expect(ring.readableCount == 0)
        #expect(put(ring, [5]))
        #expect(ring.read(into: UnsafeMutableBufferPointer(start: nil, count: 0)) == 0)
        #expect(ring.readableCount == 1)
    }

    @Test("data written across the end of storage comes back in order (wrap-around)")
    func wrapAround() {
        let ring = SPSCRing<Int>(minimumCapacity: 8, width: 1)
        var next = 0
        // Many laps with a stride that is coprime to the capacity: every wrap position.
        for lap in 0..<50 {
            let n = 1 + (lap * 5) % 8
            let values = Array(next..<(next + n))
            #expect(put(ring, values))
            #expect(take(ring, slots: n) == values)
            next += n
        }
        #expect(next > 8 * 20)
    }

    @Test("regions at the wrap are two: the tail of storage, then its start")
    func bulkRegionsSplitAtTheWrap() {
        let ring = SPSCRing<Int>(minimumCapacity: 8, width: 1)
        #expect(put(ring, Array(0..<5)))
        #expect(take(ring, slots: 5) == Array(0..<5))
        // Positions 5, 6, 7 then 0, 1, 2.
        let w = ring.writableRegions(upTo: 6)
        #expect(w.firstCount == 3 && w.secondCount == 3)
        #expect(w.second + 5 == w.first)
        for i in 0..<3 { w.first[i] = 100 + i; w.second[i] = 103 + i }
        ring.commitWrite(6)
        let r = ring.readableRegions()
        #expect(r.firstCount == 3 && r.secondCount == 3)
        #expect(r.first == w.first && r.second == w.second)
        #expect((0..<3).map { r.first[$0] } + (0..<3).map { r.second[$0] } == Array(100..<106))
        ring.commitRead(6)
        #expect(ring.readableCount == 0)
    }

    @Test("regions never exceed what is free or filled, and one region when no wrap")
    func regionsAreBounded() {
        let ring = SPSCRing<Int>(minimumCapacity: 8, width: 1)
        #expect(ring.writableRegions(upTo: 100).count == 8)
        #expect(ring.writableRegions(upTo: 100).secondCount == 0)
        #expect(put(ring, [1, 2, 3]))
        #expect(ring.writableRegions(upTo: 100).count == 5)
        #expect(ring.readableRegions(upTo: 2).count == 2)
        #expect(ring.readableRegions().count == 3)
    }

    @Test("slots wider than one element never straddle the end of storage")
    func wideSlotsNeverStraddle() {
        let width = 3
        let ring = SPSCRing<Int>(minimumCapacity: 4, width: width)
        var next = 0
        for lap in 0..<40 {
            let slots = 1 + lap % 4
            let w = ring.writableRegions(upTo: slots)
            #expect(w.count == slots)
            if w.secondCount > 0 {
                // The first region ends exactly at the end of storage, on a slot boundary.
                #expect(w.first + w.firstCount * width == w.second + ring.capacity * width)
            }
            var values = [Int]()
            for s in 0..<slots {
                let base = s < w.firstCount ? w.first + s * width : w.second + (s - w.firstCount) * width
                for c in 0..<width { base[c] = next; values.append(next); next += 1 }
            }
            ring.commitWrite(slots)
            // Whole slots come back, elements of a slot together and in order.
            #expect(take(ring, slots: slots) == values)
        }
    }

    /// Ten million elements through a 64-slot ring: the producer writes bursts of random
    /// size (whatever fits of them), the consumer reads bursts of random size and checks
    /// that element k is k. Under ThreadSanitizer this also checks the memory ordering.
    @Test("two threads move ten million elements through a small ring, each once and in order")
    func twoThreadStress() throws {
        let total = 10_000_000
        let ring = SPSCRing<Int>(minimumCapacity: 64, width: 1)
        nonisolated(unsafe) var received = 0
        nonisolated(unsafe) var firstBad: (index: Int, value: Int)? = nil

        let producer = try TestThread {
            var rng = SplitMix64(seed: 1)
            var next = 0
            while next < total {
                let want = min(Int.random(in: 1...100, using: &rng), total - next)
                let r = ring.writableRegions(upTo: want)
                if r.count == 0 { sched_yield(); continue }
                for i in 0..<r.firstCount { r.first[i] = next &+ i }
                for i in 0..<r.secondCount { r.second[i] = next &+ r.firstCount &+ i }
                ring.commitWrite(r.count)
                next += r.count
            }
        }
        let consumer = try TestThread {
            var rng = SplitMix64(seed: 2)
            var expected = 0
            while expected < total {
                let r = ring.readableRegions(upTo: Int.random(in: 1...100, using: &rng))
                if r.count == 0 { sched_yield(); continue }
                for i in 0..<r.count {
                    let v = i < r.firstCount ? r.first[i] : r.second[i - r.firstCount]
                    if v != expected &+ i && firstBad == nil { firstBad = (expected &+ i, v) }
                }
                ring.commitRead(r.count)
                expected += r.count
            }
            received = expected
        }
        producer.join()
        consumer.join()
        #expect(received == total)
        #expect(firstBad == nil)
        #expect(ring.readableCount == 0)
    }
}
