/// When to reserve disk space ahead of a recording file's end, and how much.
///
/// Blocks reserved before they are written (`fallocate` with `FALLOC_FL_KEEP_SIZE`) spare
/// the writer thread the filesystem's block bookkeeping page by page: at 64 channels its CPU
/// went from 3.3–4.3 to 2.2–2.7 ms a second (docs/benchmarks-history.md, "What was slow", item 8), and a long take lies in a few long
/// extents instead of many small ones. The file's size, and so what a reader sees, is never
/// changed by a reservation.
///
/// Between `chunk / 2` and `chunk` bytes are kept reserved past the end, so a reservation
/// is made once every `chunk / 2` bytes written. A closed file gives the rest back
/// (`FileDescriptor.releaseReservedBlocks`); a killed one keeps at most `chunk` bytes
/// allocated past its end until it is deleted or truncated.
struct SpaceReservation {
    /// 16 MiB: at 64 channels of 32-bit float at 48 kHz (12.3 MB/s) a reservation every
    /// 0.7 s; at 2 channels one every 22 s. Small enough that what a killed take leaves
    /// reserved is negligible beside the take, large enough that reserving costs nothing.
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
