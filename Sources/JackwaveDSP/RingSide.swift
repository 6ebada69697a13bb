import Synchronization

/// One side of an `SPSCRing`, the producer's or the consumer's, alone on its own cache line:
/// the index this side publishes, and this side's copy of the other side's index.
///
/// Only the owning thread writes either field; the other thread loads `published`, and only
/// when its own copy no longer shows enough room (producer) or data (consumer). So while
/// the copies suffice neither thread touches the other's line: a realtime cycle stores to
/// a line its core already holds instead of also loading one the consumer's core last
/// wrote, and the consumer's stores invalidate nothing the producer reads every cycle.
///
/// It lives in memory the ring allocates and reaches through a pointer, never in a stored
/// `var` of the class: the realtime producer must not go through Swift's dynamic
/// exclusivity checks (runtime calls) to update its copy.
@usableFromInline
struct RingSide: ~Copyable {
    /// Slots this side has ever finished with: for the producer, slots written (the write
    /// index); for the consumer, slots read (the read index). Free-running, stored only by
    /// the owning side.
    @usableFromInline let published: Atomic<Int>
    /// The other side's `published` as this side last loaded it. Both indices only grow, so
    /// this is never ahead of the real one: room or data judged from it is never more than
    /// there is, only sometimes less (and then the owner reloads).
    @usableFromInline var otherSeen: Int

    @usableFromInline
    init() {
        published = Atomic(0)
        otherSeen = 0
    }

    /// Bytes given to each side, the first of them aligned to this. 128, not 64: the L2 of
    /// Intel cores since Sandy Bridge (this machine's Xeon among them) fetches the other
    /// 64-byte half of an aligned 128-byte pair along with a line (AMD's Zen has a similar
    /// up/down prefetcher), so two indices in one pair would still bounce between the cores
    /// although they share no 64-byte line. 256 bytes per ring is nothing beside its slots.
    /// (Computed rather than a stored `static let`, which would cost a lazy-initialization
    /// check on use.)
    @inlinable static var lineBytes: Int { 128 }
}
