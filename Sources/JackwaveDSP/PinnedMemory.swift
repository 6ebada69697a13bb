import Glibc

/// Memory the realtime thread may touch without ever taking a page fault: an anonymous
/// mapping whose pages all exist (zeroed by the kernel) before it is returned, locked in
/// RAM where the memlock limit allows.
///
/// Why not huge pages: `MADV_HUGEPAGE` made a 10-second 64-channel ring cost 31 ms to
/// build instead of 80, but whenever no 2 MiB blocks were free (after a take had filled the
/// page cache) the kernel compacted memory first, and start-up took 300 ms of CPU instead.
package enum PinnedMemory {
    /// A zeroed, populated mapping of `byteCount` bytes; `release` it with the same count.
    /// Fatal if the address space is exhausted.
    package static func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        let populated = MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE
        // Populated and locked in one pass (`mlock` after `MAP_POPULATE` walked every page
        // twice: a fifth of a 64-channel start-up). Over the memlock limit `MAP_LOCKED`
        // fails (EAGAIN); on that or any other failure, try once more populated only.
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
