import Glibc
@testable import JackwaveDSP
import Testing

/// Nested in `SPSCRingTests`, so that `--filter SPSCRingTests` (how scripts/test runs the
/// ring under ThreadSanitizer) selects these too.
extension SPSCRingTests {
    /// Each side of an `SPSCRing` judges room or data from its own copy of the other side's
    /// index and reloads it only when that copy shows too little. These tests drive the ring
    /// into the states where a copy is stale (behind the real index) and check two things: that
    /// a stale copy is used while it suffices (the point of having it), and that it is never
    /// trusted for more than it shows (the ring's contents and counts stay right).
    @Suite("SPSCRing cached indices")
    struct CachedIndices {
        /// Writes `values` (one element per slot) through the region API; false if they do not fit.
        private func put(_ ring: SPSCRing<Int>, _ values: [Int]) -> Bool {
            let r = ring.writableRegions(upTo: values.count)
            guard r.count == values.count else { return false }
            for (i, v) in values.enumerated() {
                if i < r.firstCount { r.first[i] = v } else { r.second[i - r.firstCount] = v }
            }
            ring.commitWrite(values.count)
            return true
        }

        /// Reads up to `slots` slots through the region API.
        private func take(_ ring: SPSCRing<Int>, upTo slots: Int) -> [Int] {
            let r = ring.readableRegions(upTo: slots)
            let values = (0..<r.count).map { $0 < r.firstCount ? r.first[$0] : r.second[$0 - r.firstCount] }
            ring.commitRead(r.count)
            return values
        }

        @Test("the producer keeps a stale copy of the read index while it shows room, and reloads when the ring looks full")
        func producerReloadsOnlyWhenFull() {
            let ring = SPSCRing<Int>(minimumCapacity: 8, width: 1)
            #expect(put(ring, [0, 1, 2]))
            #expect(take(ring, upTo: 2) == [0, 1])            // read index 2
            #expect(put(ring, [3, 4, 5, 6, 7]))               // copy says 5 free: enough
            #expect(ring.producer.pointee.otherSeen == 0)     // so it was not reloaded
            // The copy now says the ring is full; the real read index says two slots are free.
            #expect(put(ring, [8, 9]))                        // wraps to positions 0 and 1
            #expect(ring.producer.pointee.otherSeen == 2)
            #expect(!put(ring, [10]))                         // really full: refused whole
            #expect(take(ring, upTo: 100) == Array(2...9))
        }

        @Test("the consumer keeps a stale copy of the write index while it shows data, and reloads when the ring looks empty")
        func consumerReloadsOnlyWhenEmpty() {
            let ring = SPSCRing<Int>(minimumCapacity: 8, width: 1)
            #expect(put(ring, [0, 1, 2, 3]))
            #expect(take(ring, upTo: 1) == [0])               // reloads: copy 4
            #expect(put(ring, [4, 5, 6]))                     // write index 7
            #expect(take(ring, upTo: 3) == [1, 2, 3])         // copy says 3 left: enough
            #expect(ring.consumer.pointee.otherSeen == 4)     // not reloaded
            #expect(take(ring, upTo: 2) == [4, 5])            // copy says empty: reloads
            #expect(ring.consumer.pointee.otherSeen == 7)
            #expect(take(ring, upTo: 5) == [6])               // a short read takes what there is
            #expect(take(ring, upTo: 5).isEmpty)
        }

        @Test("the exact counts always reload, and refresh the copies")
        func countsReload() {
            let ring = SPSCRing<Int>(minimumCapacity: 4, width: 1)
            #expect(put(ring, [1, 2, 3]))
            #expect(ring.readableCount == 3 && ring.consumer.pointee.otherSeen == 3)
            #expect(take(ring, upTo: 2) == [1, 2])
            #expect(ring.writableCount == 3 && ring.producer.pointee.otherSeen == 2)
            #expect(ring.approximateFill == 1)
        }

        /// Both copies stale across several laps: the producer writes while its copy of the read
        /// index is a lap old, the consumer reads while its copy of the write index is behind,
        /// and every region is split at the end of storage somewhere along the way.
        @Test("stale copies on both sides, across many wraps, never give out a slot twice or lose one")
        func staleCopiesAcrossWraps() {
            let capacity = 8
            let ring = SPSCRing<Int>(minimumCapacity: capacity, width: 1)
            var written = 0, read = 0
            var rng = SplitMix64(seed: 7)
            for _ in 0..<2000 {
                let want = Int.random(in: 1...capacity, using: &rng)
                let r = ring.writableRegions(upTo: want)
                // Never more than is free, and everything asked for when that much is free.
                #expect(r.count == min(want, capacity - (written - read)))
                for i in 0..<r.count {
                    if i < r.firstCount { r.first[i] = written + i } else { r.second[i - r.firstCount] = written + i }
                }
                ring.commitWrite(r.count)
                written += r.count
                let ask = Int.random(in: 1...capacity, using: &rng)
                let values = take(ring, upTo: ask)
                // Never more than is filled, and everything asked for when that much is filled.
                #expect(values == Array(read..<(read + max(0, min(ask, written - read)))))   // max: a ring that gave out more must not trap
                read += values.count
                #expect(ring.producer.pointee.otherSeen <= read && ring.consumer.pointee.otherSeen <= written)
            }
            #expect(written > 100 * capacity)
        }

        /// A producer that fills the ring while the consumer is stalled (it sleeps every so
        /// often), then a consumer that drains while the producer is stalled: each side's reload
        /// runs against the other thread's stores. Under ThreadSanitizer this checks the
        /// reloads' ordering too.
        @Test("a producer that fills the ring while the consumer stalls, and a consumer that drains while the producer stalls")
        func stallsOnBothSides() throws {
            let total = 200_000
            let width = 3
            let ring = SPSCRing<Int>(minimumCapacity: 16, width: width)
            nonisolated(unsafe) var producerSawFull = 0
            nonisolated(unsafe) var consumerSawEmpty = 0
            nonisolated(unsafe) var firstBad: Int? = nil

            let producer = try TestThread {
                var next = 0, nextStall = 10_000
                while next < total {
                    if next >= nextStall { usleep(2000); nextStall += 20_000 } // the consumer drains the ring dry
                    let r = ring.writableRegions(upTo: min(5, total - next))
                    if r.count == 0 { producerSawFull += 1; sched_yield(); continue }
                    for s in 0..<r.count {
                        let base = s < r.firstCount ? r.first + s * width : r.second + (s - r.firstCount) * width
                        for c in 0..<width { base[c] = (next + s) * width + c }
                    }
                    ring.commitWrite(r.count)
                    next += r.count
                }
            }
            let consumer = try TestThread {
                var expected = 0, nextStall = 20_000
                while expected < total {
                    if expected >= nextStall { usleep(2000); nextStall += 20_000 } // the producer fills it
                    let r = ring.readableRegions(upTo: 3)
                    if r.count == 0 { consumerSawEmpty += 1; sched_yield(); continue }
                    for s in 0..<r.count {
                        let base = s < r.firstCount ? r.first + s * width : r.second + (s - r.firstCount) * width
                        for c in 0..<width where base[c] != (expected + s) * width + c && firstBad == nil {
                            firstBad = expected + s
                        }
                    }
                    ring.commitRead(r.count)
                    expected += r.count
                }
            }
            producer.join()
            consumer.join()
            #expect(firstBad == nil)
            #expect(producerSawFull > 0 && consumerSawEmpty > 0)
            #expect(ring.readableCount == 0 && ring.writableCount == 16)
        }
    }
}
