import CSndfile
import Foundation
@testable import JackwaveSoundFiles
import Testing

/// Disk space reserved ahead of a recording's end: when and how much (`SpaceReservation`),
/// and what a written file holds on disk before and after it is closed (`SoundFile`).
@Suite("Space reserved ahead of a recording")
struct SpaceReservationTests {
    @Test("the first write reserves a whole chunk past the file's end")
    func firstReservation() {
        var r = SpaceReservation(chunk: 1000)
        #expect(r.rangeToReserve(fileSize: 44) == 44..<1044)
        #expect(r.reservedEnd == 1044)
    }

    @Test("nothing more is reserved while at least half a chunk past the end is reserved")
    func halfAChunkLeftIsEnough() {
        var r = SpaceReservation(chunk: 1000)
        _ = r.rangeToReserve(fileSize: 44)
        #expect(r.rangeToReserve(fileSize: 300) == nil)
        #expect(r.rangeToReserve(fileSize: 544) == nil)   // exactly half a chunk left
    }

    @Test("with less than half a chunk left, the reservation grows to a chunk past the end, from where it stopped")
    func toppedUp() {
        var r = SpaceReservation(chunk: 1000)
        _ = r.rangeToReserve(fileSize: 44)
        #expect(r.rangeToReserve(fileSize: 545) == 1044..<1545)
        #expect(r.rangeToReserve(fileSize: 1100) == 1545..<2100)
    }

    @Test("a file written past its reservation at once gets a reservation from its end")
    func writesOvertookTheReservation() {
        var r = SpaceReservation(chunk: 1000)
        _ = r.rangeToReserve(fileSize: 0)
        #expect(r.rangeToReserve(fileSize: 5000) == 5000..<6000)
    }

    @Test("after a refusal no more reservations are asked for")
    func refusalIsFinal() {
        var r = SpaceReservation(chunk: 1000)
        _ = r.rangeToReserve(fileSize: 0)
        r.refused()
        #expect(r.rangeToReserve(fileSize: 5000) == nil)
        #expect(!r.isActive)
    }

    /// Whether the filesystem of the temporary directory reserves blocks past a file's end
    /// (ext4, XFS, tmpfs do; NFSv3 and some FUSE filesystems refuse, and jackwave then just
    /// writes without reserving).
    static let temporaryFilesystemReserves: Bool = {
        let path = NSTemporaryDirectory() + "jackwave-probe-\(UUID().uuidString)"
        defer { unlink(path) }
        guard let fd = try? FileDescriptor.create(path, policy: .new) else { return false }
        defer { _ = fd.close() }
        return fd.reserve(0..<4096)
    }()

    @Test("a file being written has a chunk allocated past its end, and closing it gives that back",
          .enabled(if: temporaryFilesystemReserves))
    func closingGivesTheReservationBack() throws {
        let dir = NSTemporaryDirectory() + "jackwave-reservation-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/take.wav"
        let file = try SoundFile(writingTo: path, format: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT), channels: 2, sampleRate: 48000)
        let frames = [Float](repeating: 0.5, count: 2 * 48000)
        #expect(frames.withUnsafeBufferPointer { file.write($0.baseAddress!, count: 48000) } == 48000)
        file.keepSpaceReserved()
        let open = try diskUsage(path)
        #expect(open.allocated >= open.size + SpaceReservation.defaultChunk / 2,
                "\(open.allocated) bytes allocated for \(open.size) (does this filesystem have fallocate?)")
        file.close()
        let closed = try diskUsage(path)
        #expect(closed.size > 2 * 4 * 48000)
        #expect(closed.allocated < closed.size + 65536, "\(closed.allocated) bytes allocated for \(closed.size)")
        #expect(try SoundFile(readingFrom: path).frames == 48000)
    }

    /// The file's size and the bytes its blocks take on disk (`stat`).
    func diskUsage(_ path: String) throws -> (size: Int64, allocated: Int64) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return (Int64(info.st_size), Int64(info.st_blocks) * 512)
    }
}
