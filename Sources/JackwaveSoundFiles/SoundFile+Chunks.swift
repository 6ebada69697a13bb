import CSndfile

/// Chunks libsndfile does not know by name (`iXML`), through its chunk API. It keeps what
/// `setChunk` gives in the header, before the audio, and writes it again with every header
/// update, so a file cut short by a crash still carries it. Only WAV, WAVEX and RF64 keep
/// such chunks; only before the first frame is written.
extension SoundFile {
    /// `sf_set_chunk`: stores `bytes` as chunk `id` (four ASCII characters). libsndfile
    /// writes a chunk's length rounded up to 4 bytes and reads its data that far, so the
    /// data is padded here with `pad` to a multiple of 4. False if refused.
    @discardableResult
    public func setChunk(id: String, bytes: [UInt8], pad: UInt8 = 0x20) -> Bool {
        guard let handle, id.utf8.count == 4 else { return false }
        var data = bytes
        while data.count % 4 != 0 { data.append(pad) }
        var info = SF_CHUNK_INFO()
        withUnsafeMutableBytes(of: &info.id) { raw in
            for (i, b) in id.utf8.enumerated() { raw[i] = b }
        }
        info.id_size = 4
        info.datalen = UInt32(data.count)
        // libsndfile copies the data (psf_memdup) before returning.
        return data.withUnsafeMutableBytes { raw in
            info.data = raw.baseAddress
            return sf_set_chunk(handle, &info) == 0
        }
    }

    /// The most bytes `chunk(id:)` reads: the size is the file's word, outside input.
    public static let maximumChunkBytes = 1 << 20

    /// `sf_get_chunk_iterator` and `sf_get_chunk_data`: the first chunk `id` the file holds,
    /// nil if none (or one larger than `maximumChunkBytes`).
    public func chunk(id: String) -> [UInt8]? {
        guard let handle, id.utf8.count == 4 else { return nil }
        var info = SF_CHUNK_INFO()
        withUnsafeMutableBytes(of: &info.id) { raw in
            for (i, b) in id.utf8.enumerated() { raw[i] = b }
        }
        info.id_size = 4
        guard let iterator = sf_get_chunk_iterator(handle, &info) else { return nil }
        var size = SF_CHUNK_INFO()
        guard sf_get_chunk_size(iterator, &size) == 0, size.datalen > 0, Int(size.datalen) <= Self.maximumChunkBytes else {
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: Int(size.datalen))
        let ok = bytes.withUnsafeMutableBytes { raw in
            size.data = raw.baseAddress
            return sf_get_chunk_data(iterator, &size) == 0
        }
        return ok ? Array(bytes.prefix(Int(size.datalen))) : nil
    }
}
