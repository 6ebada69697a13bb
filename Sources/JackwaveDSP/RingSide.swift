import Synchronization

/// One side of an `SPSCRing`, alone on its cache line: the index this side publishes and its
/// copy of the other side's. Only the owner writes either field; the other thread loads
/// `published` only when its own copy shows too little room or data, so in the steady state
/// neither thread touches the other's line.
///
/// Reached through a pointer into the ring's mapping, not a stored `var` of the class, so
/// the realtime producer goes through no dynamic exclusivity checks.
@usableFromInline
struct RingSide: ~Copyable {
    /// Slots this side has finished with (producer: written; consumer: read). Free-running,
    /// stored only by the owner.
    @usableFromInline let published: Atomic<Int>
    /// The other side's `published` as last loaded. Both indices only grow, so this is never
    /// ahead: room or data judged from it is never more than there is (else the owner reloads).
    @usableFromInline var otherSeen: Int

    @usableFromInline
    init() {
        published = Atomic(0)
        otherSeen = 0
    }

    /// Bytes given to each side, aligned to this. 128, not 64: Intel's L2 (and Zen's) fetches
    /// the adjacent line of an aligned pair, so two indices in one pair would still bounce.
    /// Computed, not a stored `static let`, which would cost a lazy-initialization check.
    @inlinable static var lineBytes: Int { 128 }
}
