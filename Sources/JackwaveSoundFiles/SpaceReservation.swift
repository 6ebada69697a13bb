/// When to reserve disk space ahead of a recording file's end, and how much. Blocks reserved
/// before they are written (`fallocate`, `FALLOC_FL_KEEP_SIZE`) spare the writer thread the
/// filesystem's bookkeeping page by page (docs/benchmarks-history.md, "What was slow", item 8)
/// and keep a long take in few extents; the file's size is never changed.
///
/// Between `chunk / 2` and `chunk` bytes stay reserved past the end; a closed file gives them
/// back (`FileDescriptor.releaseReservedBlocks`), a killed one keeps at most `chunk`.
struct SpaceReservation {
    /// 16 MiB: a reservation every 0.7 s at 64 channels of float at 48 kHz, every 22 s at 2.
    /// Negligible beside a take if a kill leaves it, and rare enough to cost nothing.
    static let defaultChunk: Int64 = 16 << 20

    let chunk: Int64
    /// Bytes from the start of the file that are reserved.
    private(set) var reservedEnd: Int64 = 0
    /// False once the filesystem refused: then no more attempts are made (a filesystem
    /// without `fallocate`, or a disk too full for a whole chunk, where plain writes go on
    /// until the disk is really full).
    private(set) var isActive = true

    init(chunk: Int64 = SpaceReservation.defaultChunk) {
        precondition(chunk >= 2)
        self.chunk = chunk
    }

    /// The bytes to reserve now that the file is `size` bytes long, or nil while at least
    /// half a chunk past the end is still reserved. The range returned counts as reserved.
    mutating func rangeToReserve(fileSize size: Int64) -> Range<Int64>? {
        guard isActive, size + chunk / 2 > reservedEnd else { return nil }
        let range = max(size, reservedEnd)..<(size + chunk)
        reservedEnd = range.upperBound
        return range
    }

    /// The filesystem refused a reservation: stop asking.
    mutating func refused() { isActive = false }
}
