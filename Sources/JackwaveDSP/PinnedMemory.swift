import Glibc

/// Memory the realtime thread may touch without a page fault: an anonymous mapping whose
/// pages all exist before it is returned, locked in RAM where the memlock limit allows.
/// No huge pages: with no 2 MiB blocks free the kernel compacts memory first, which costs
/// start-up far more than huge pages save.
package enum PinnedMemory {
    /// A zeroed, populated mapping of `byteCount` bytes; `release` it with the same count.
    /// Fatal if the address space is exhausted.
    package static func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        let populated = MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE
        // Populated and locked in one pass (`mlock` after `MAP_POPULATE` walks every page twice).
        // Over the memlock limit `MAP_LOCKED` fails (EAGAIN): then, or on any failure, populate only.
        var mapping = mmap(nil, byteCount, PROT_READ | PROT_WRITE, populated | MAP_LOCKED, -1, 0)
        if mapping == MAP_FAILED {
            mapping = mmap(nil, byteCount, PROT_READ | PROT_WRITE, populated, -1, 0)
        }
        guard let mapping, mapping != MAP_FAILED else { fatalError("cannot map \(byteCount) bytes") }  // setup only
        return mapping
    }

    /// Unmaps what `allocate(byteCount:)` returned.
    package static func release(_ base: UnsafeMutableRawPointer, byteCount: Int) {
        munmap(base, byteCount)
    }
}
