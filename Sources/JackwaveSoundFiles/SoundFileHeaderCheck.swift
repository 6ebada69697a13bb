import CSndfile

/// A sound file's header checked against the file before anything is allocated by its
/// counts: a header is outside input, and libsndfile bounds neither every format's frame
/// count nor the channels. Uncompressed, frames × channels × width must fit in the file;
/// compressed, at most `maximumSamplesPerByte` samples a byte, beyond any codec yet far
/// from overflowing a size.
public enum SoundFileHeaderCheck {
    /// libsndfile's own ceiling, and JACK's port count's (`-c` takes at most 1024).
    public static let maximumChannels = 1024
    /// The highest rate jackwave records (`--rate`), and far past what audio is kept at.
    public static let maximumSampleRate = 768_000
    /// For compressed data: FLAC's most compact frame, a constant subframe of 65535
    /// samples, is a few bytes per channel, about 10^4 samples per byte.
    public static let maximumSamplesPerByte: Int64 = 65536
    /// The most frames a file may claim: 5.8 years at 768 kHz, 93 at 48 kHz. tmpfs holds a
    /// sparse file of 2^63 bytes, so the size alone bounds nothing; past this, a frame count
    /// times the widest picture's columns (2^14) would overflow, and near 2^63 a duration in
    /// seconds at 1 Hz no longer converts back to frames.
    public static let maximumFrames: Int64 = 1 << 47

    /// What is wrong with a header saying this of a file of `fileBytes` bytes, in the
    /// user's terms; nil when it is believable.
    public static func problem(channels: Int, frames: Int64, sampleRate: Int, format: Int32, fileBytes: Int64) -> String? {
        guard channels >= 1 && channels <= maximumChannels else {
            return "its header says \(channels) channels; a sound file has 1 to \(maximumChannels)"
        }
        guard sampleRate >= 1 && sampleRate <= maximumSampleRate else {
            return "its header says a sample rate of \(sampleRate) Hz, which no recording has"
        }
        guard frames >= 0 else { return "its header says \(frames) frames" }
        guard frames <= maximumFrames else {
            return "its header says \(frames) frames; a recording holds at most 2^47 (5.8 years at 768 kHz)"
        }
        let samples = frames.multipliedReportingOverflow(by: Int64(channels))
        if let width = sampleBytes(format: format) {
            let bytes = samples.partialValue.multipliedReportingOverflow(by: Int64(width))
            if samples.overflow || bytes.overflow || bytes.partialValue > fileBytes {
                return "its header says \(frames) frames of \(channels) channels (\(samples.overflow || bytes.overflow ? "more than any disk holds" : "\(bytes.partialValue) bytes of audio")), but the file is only \(fileBytes) bytes"
            }
        } else {
            let most = fileBytes.multipliedReportingOverflow(by: maximumSamplesPerByte)
            if samples.overflow || (!most.overflow && samples.partialValue > most.partialValue) {
                return "its header says \(frames) frames of \(channels) channels, more than a \(fileBytes)-byte file can hold"
            }
        }
        return nil
    }

    /// Bytes per sample of an uncompressed subtype (`SF_FORMAT_PCM_*`, float, double, A-law,
    /// µ-law); nil for a compressed one. FLAC names its depth by a PCM subtype, but
    /// compresses it.
    static func sampleBytes(format: Int32) -> Int? {
        if format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_FLAC) { return nil }
        return switch format & Int32(SF_FORMAT_SUBMASK) {
        case Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8), Int32(SF_FORMAT_ULAW), Int32(SF_FORMAT_ALAW): 1
        case Int32(SF_FORMAT_PCM_16): 2
        case Int32(SF_FORMAT_PCM_24): 3
        case Int32(SF_FORMAT_PCM_32), Int32(SF_FORMAT_FLOAT): 4
        case Int32(SF_FORMAT_DOUBLE): 8
        default: nil
        }
    }
}
