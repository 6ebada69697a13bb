import CGlibcExtras
import CSndfile
import Glibc

/// Cue points (markers), through libsndfile's cue support. libsndfile stores them only in
/// WAV and WAVEX files (not RF64), keeps their numbers and positions (not their names),
/// and takes them only before a file's first frame: a file recorded with markers is
/// rewritten once at the end (`addCues`), its audio copied byte for byte.
extension SoundFile {
    /// Whether libsndfile keeps cue points in a file of this format (WAV and WAVEX).
    public static func holdsCues(format: Int32) -> Bool {
        let major = format & Int32(SF_FORMAT_TYPEMASK)
        return major == Int32(SF_FORMAT_WAV) || major == Int32(SF_FORMAT_WAVEX)
    }

    /// `sf_command(SFC_SET_CUE)`: cue points numbered 1, 2, … at these frames. Only before
    /// the first write; false if refused.
    @discardableResult
    public func setCues(_ frames: [Int64]) -> Bool {
        guard let handle, !frames.isEmpty else { return false }
        // An `SF_CUES_VAR(n)`: the count, then n points (the header's fixed 100 would cap it).
        let pointSize = MemoryLayout<SF_CUE_POINT>.stride
        let offset = MemoryLayout<SF_CUE_POINT>.alignment > 4 ? MemoryLayout<SF_CUE_POINT>.alignment : 4
        let size = offset + frames.count * pointSize
        // libsndfile takes the size as an int: a list that would not fit is refused, never a trap.
        guard let size32 = Int32(exactly: size) else { return false }
        let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        raw.storeBytes(of: UInt32(frames.count), as: UInt32.self)
        let points = (raw + offset).bindMemory(to: SF_CUE_POINT.self, capacity: frames.count)
        for (i, frame) in frames.enumerated() {
            points[i].indx = Int32(i + 1)
            points[i].position = UInt32(truncatingIfNeeded: frame)
            points[i].fcc_chunk = 0x6174_6164  // "data", little-endian
            points[i].sample_offset = UInt32(truncatingIfNeeded: frame)
        }
        return sf_command(handle, Int32(SFC_SET_CUE), raw, size32) == Int32(SF_TRUE)
    }

    /// The most cue points read from a file: its count is outside input, and 2^32 points
    /// would be a 96 GB buffer. Far more than jackwave writes (`MarkerBook.maximumMarkers`).
    public static let maximumCuesRead = 65536

    /// `sf_command(SFC_GET_CUE_COUNT)` and `SFC_GET_CUE`: the file's cue points, as
    /// (number, frame), in the file's order (none if it claims more than `maximumCuesRead`).
    public var cues: [(number: Int, frame: Int64)] {
        guard let handle else { return [] }
        var count: UInt32 = 0
        guard sf_command(handle, Int32(SFC_GET_CUE_COUNT), &count, Int32(MemoryLayout<UInt32>.size)) == Int32(SF_TRUE),
              count > 0, count <= Self.maximumCuesRead else { return [] }
        let pointSize = MemoryLayout<SF_CUE_POINT>.stride
        let offset = MemoryLayout<SF_CUE_POINT>.alignment > 4 ? MemoryLayout<SF_CUE_POINT>.alignment : 4
        let size = offset + Int(count) * pointSize
        let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        guard sf_command(handle, Int32(SFC_GET_CUE), raw, Int32(size)) == Int32(SF_TRUE) else { return [] }
        let n = Int(raw.load(as: UInt32.self))
        let points = (raw + offset).bindMemory(to: SF_CUE_POINT.self, capacity: Int(count))
        return (0..<min(n, Int(count))).map { (Int(points[$0].indx), Int64(points[$0].sample_offset)) }
    }

    /// `sf_read_raw`: up to `bytes` bytes of the audio as stored; returns bytes read.
    func readRaw(into buffer: UnsafeMutableRawPointer, bytes: Int) -> Int {
        guard let handle else { return 0 }
        return Int(sf_read_raw(handle, buffer, sf_count_t(bytes)))
    }

    /// `sf_write_raw`: `bytes` bytes of audio as stored (whole frames); returns bytes written.
    func writeRaw(_ buffer: UnsafeRawPointer, bytes: Int) -> Int {
        guard let handle else { return 0 }
        return Int(sf_write_raw(handle, buffer, sf_count_t(bytes)))
    }

    /// Rewrites the WAV or WAVEX file at `path` with cue points at `frames`: a temporary beside
    /// it (`CreatedFile.temporary`) takes its format, `bext`, `iXML`, the cues and its audio byte for
    /// byte, and replaces it only once complete. Returns the new file's identity, so retention
    /// can follow the file to its new inode.
    @discardableResult
    public static func addCues(_ frames: [Int64], to path: String) throws(SoundFileError) -> FileIdentity {
        let source = try SoundFile(readingFrom: path)
        guard holdsCues(format: source.format) else {
            throw SoundFileError(path: path, reason: "libsndfile keeps cue points in WAV files only")
        }
        var info = stat()
        let mode = stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
        let temporary: (fd: Int32, path: String)
        do throws(CreatedFileError) { temporary = try CreatedFile.temporary(beside: path, mode: mode) } catch {
            throw SoundFileError(path: path, reason: error.reason)
        }
        // The new file carries the old one's ownership tag, so that retention still knows it
        // as jackwave's where the file system keeps no birth time.
        FileIdentity.copyTag(from: path, to: temporary.fd)
        var identity = FileIdentity(descriptor: temporary.fd)
        // The copy failed (a full disk, a quota): a tag of its own, which retention records.
        if !identity.isProof, let tag = FileIdentity.tag(temporary.fd) {
            identity = FileIdentity(device: identity.device, inode: identity.inode, born: nil, tag: tag)
        }
        let target: SoundFile
        do throws(SoundFileError) {
            target = try SoundFile(writingTo: FileDescriptor(rawValue: temporary.fd), path: temporary.path, format: source.format,
                                   channels: source.channels, sampleRate: source.sampleRate, rf64AutoDowngrade: false)
        } catch {
            unlink(temporary.path)
            throw SoundFileError(path: path, reason: error.reason)
        }
        if let bext = source.broadcastInfo { target.setBroadcastInfo(bext) }
        if let ixml = source.chunk(id: IXMLDocument.chunkID) { target.setChunk(id: IXMLDocument.chunkID, bytes: ixml) }
        guard target.setCues(frames) else {
            target.close()
            unlink(temporary.path)
            throw SoundFileError(path: path, reason: "libsndfile refused the cue points: \(target.lastError)")
        }
        // 24 bytes per sample divides every sample width (1, 2, 3, 4, 8): whole frames.
        let chunk = 4096 * source.channels * 24
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var failure: String?
        while failure == nil {
            let n = source.readRaw(into: buffer, bytes: chunk)
            if n <= 0 { break }
            if target.writeRaw(buffer, bytes: n) != n { failure = "write failed: \(target.lastError)" }
        }
        if let error = target.close(), failure == nil { failure = "closing failed: \(error)" }
        source.close()
        if let failure {
            unlink(temporary.path)
            throw SoundFileError(path: path, reason: failure)
        }
        do throws(CreatedFileError) { try CreatedFile.moveIntoPlace(temporary.path, at: path) } catch {
            throw SoundFileError(path: path, reason: error.reason)
        }
        return identity
    }
}
