import CSndfile
import Foundation
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// A header's counts are outside input: checked against the file's size before anything is
/// sized by them.
@Suite("Sound file header checks")
struct SoundFileHeaderCheckTests {
    let wav16 = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)

    @Test("an uncompressed file must hold frames × channels × sample width bytes: the numbers are said")
    func uncompressedAgainstSize() {
        #expect(SoundFileHeaderCheck.problem(channels: 2, frames: 1000, sampleRate: 48000, format: wav16, fileBytes: 4044) == nil)
        #expect(SoundFileHeaderCheck.problem(channels: 2, frames: 1 << 40, sampleRate: 48000, format: wav16, fileBytes: 4044)
                == "its header says 1099511627776 frames of 2 channels (4398046511104 bytes of audio), but the file is only 4044 bytes")
    }

    @Test("counts whose product overflows are refused, not trapped on")
    func overflow() {
        let problem = SoundFileHeaderCheck.problem(channels: 1024, frames: Int64.max / 2, sampleRate: 48000, format: wav16, fileBytes: 100)
        #expect(problem?.contains("a recording holds at most 2^47") == true, "\(problem ?? "nil")")
        let compressed = SoundFileHeaderCheck.problem(channels: 1024, frames: Int64.max / 2, sampleRate: 48000,
                                                      format: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), fileBytes: 100)
        #expect(compressed != nil)
    }

    @Test("a header claims at most 2^47 frames, however large the file (tmpfs holds 2^63 bytes)")
    func longestFile() {
        let u8 = Int32(SF_FORMAT_RF64 | SF_FORMAT_PCM_U8)
        #expect(SoundFileHeaderCheck.problem(channels: 1, frames: 1 << 47, sampleRate: 1, format: u8, fileBytes: .max) == nil)
        #expect(SoundFileHeaderCheck.problem(channels: 1, frames: (1 << 47) + 1, sampleRate: 1, format: u8, fileBytes: .max)
                == "its header says 140737488355329 frames; a recording holds at most 2^47 (5.8 years at 768 kHz)")
    }

    @Test("channels and rate outside what any recording has are refused")
    func channelsAndRate() {
        #expect(SoundFileHeaderCheck.problem(channels: 0, frames: 1, sampleRate: 48000, format: wav16, fileBytes: 100)
                == "its header says 0 channels; a sound file has 1 to 1024")
        #expect(SoundFileHeaderCheck.problem(channels: 1025, frames: 1, sampleRate: 48000, format: wav16, fileBytes: 1 << 30) != nil)
        #expect(SoundFileHeaderCheck.problem(channels: 1, frames: 1, sampleRate: 0, format: wav16, fileBytes: 100) != nil)
    }

    @Test("FLAC names its depth by a PCM subtype but compresses: a 10 s stereo sine in 136 kB is believed")
    func flacIsCompressed() {
        let flac = Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        #expect(SoundFileHeaderCheck.problem(channels: 2, frames: 441_000, sampleRate: 44100, format: flac, fileBytes: 135_752) == nil)
        #expect(SoundFileHeaderCheck.problem(channels: 2, frames: 1 << 40, sampleRate: 44100, format: flac, fileBytes: 135_752) != nil)
    }

    @Test("a 1024-channel WAV of four frames opens as what it is (8 kB of audio is believable)")
    func wideButTrue() throws {
        let path = NSTemporaryDirectory() + "jackwave-wide-\(UUID().uuidString).wav"
        defer { unlink(path) }
        try Data(TestFiles.wav(channels: 1024, frames: 4, holding: 4 * 2048)).write(to: URL(fileURLWithPath: path))
        let file = try SoundFile(readingFrom: path)
        #expect(file.channels == 1024 && file.frames == 4)
    }

    @Test("a WAV whose data chunk claims more than the file holds reads as the frames really there")
    func lyingDataChunk() throws {
        let path = NSTemporaryDirectory() + "jackwave-lying-\(UUID().uuidString).wav"
        defer { unlink(path) }
        try Data(TestFiles.wav(channels: 1024, frames: 4, holding: 100)).write(to: URL(fileURLWithPath: path))
        let file = try SoundFile(readingFrom: path)
        #expect(file.frames == 0)
    }
}
