import JackwaveSoundFiles

/// Measuring a sound file's loudness: one pass, in chunks, through a `LoudnessAnalyzer`.
public enum FileLoudness {
    /// Frames per read: 64 Ki frames keeps the buffer small and libsndfile's per-call cost
    /// negligible.
    public static let chunkFrames = 1 << 16

    /// The file's summary and the analyzer that measured it (kept for
    /// `LoudnessAnalyzer.integrated(of:)` over several files); nil if libebur128 refuses its
    /// channels or rate.
    public static func measure(_ file: SoundFile) -> (summary: LoudnessSummary, analyzer: LoudnessAnalyzer)? {
        let weighting = ChannelWeighting(channels: file.channels, positions: file.channelPositions)
        guard let analyzer = LoudnessAnalyzer(sampleRate: file.sampleRate, weighting: weighting) else { return nil }
        let chunk = file.framesPerRead(upTo: chunkFrames)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * file.channels)
        defer { buffer.deallocate() }
        var frames: Int64 = 0
        while true {
            let got = file.read(into: buffer, count: chunk)
            if got <= 0 { break }
            analyzer.add(buffer, count: got)
            frames += Int64(got)
        }
        return (LoudnessSummary(analyzer, weighting: weighting, frames: frames), analyzer)
    }
}
