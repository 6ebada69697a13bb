import CSndfile

extension SoundFile {
    /// `sf_command(SFC_SET_COMPRESSION_LEVEL)`, then `SFC_SET_BITRATE_MODE` if asked: a lossy
    /// codec's quality or bit rate (`CompressionQuality`). Before the first frame; false if
    /// libsndfile refused either.
    @discardableResult
    public func setCompression(_ settings: CompressionSettings) -> Bool {
        guard let handle else { return false }
        var level = settings.compressionLevel
        guard sf_command(handle, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size)) == Int32(SF_TRUE) else {
            return false
        }
        guard var mode = settings.bitrateMode else { return true }
        return sf_command(handle, Int32(SFC_SET_BITRATE_MODE), &mode, Int32(MemoryLayout<Int32>.size)) == Int32(SF_TRUE)
    }

    /// `sf_command(SFC_SET_OGG_PAGE_LATENCY)`: milliseconds of audio an Ogg Opus page holds, so
    /// what a killed recording loses at its end and what a stream's listener waits. Opus only,
    /// before the first frame. No result: libsndfile 1.2.0 answers false even when it complies.
    public func setOggPageLatency(milliseconds: Double) {
        guard let handle else { return }
        var value = milliseconds
        _ = sf_command(handle, Int32(SFC_SET_OGG_PAGE_LATENCY), &value, Int32(MemoryLayout<Double>.size))
    }
}

extension SoundFile {
    /// Opus pages of 200 ms instead of libsndfile's 1 s: a killed file loses about 0.2 s and a
    /// listener waits 0.2 s, for a page header every 200 ms (about 0.4 % more bytes).
    public static let opusPageMilliseconds = 200.0

    /// What a new lossy file or stream is set up with before its first frame: its quality or
    /// bit rate (`--quality`, if given) and, for Opus, `opusPageMilliseconds` pages. Throws
    /// if libsndfile refuses the quality.
    public func applyCodecSettings(_ compression: CompressionSettings?) throws(SoundFileError) {
        if format & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_OPUS) { setOggPageLatency(milliseconds: Self.opusPageMilliseconds) }
        if let compression, !setCompression(compression) {
            throw SoundFileError(path: path, reason: "libsndfile refused the quality setting: \(lastError)")
        }
    }
}
