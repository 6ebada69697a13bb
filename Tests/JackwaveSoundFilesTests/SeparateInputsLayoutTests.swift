import CSndfile
import Foundation
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// What a multichannel recording of separate inputs says of its channels' positions.
@Suite("Separate inputs layout")
struct SeparateInputsLayoutTests {
    /// Writes a float WAV of `channels` (with the layout if `stated`) and reads its positions.
    func positions(channels: Int, stated: Bool) throws -> [ChannelPosition]? {
        let path = NSTemporaryDirectory() + "jackwave-layout-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let format = try #require(SoundFormat.named("wav")?.formatWord(depth: .float))
        let file = try SoundFile(writingTo: path, format: format, channels: channels, sampleRate: 48000)
        if stated, let map = SeparateInputsLayout.channelMap(channels: channels, format: format) { #expect(file.setChannelMap(map)) }
        let zeros = [Float](repeating: 0, count: channels * 10)
        _ = zeros.withUnsafeBufferPointer { file.write($0.baseAddress!, count: 10) }
        file.close()
        return try SoundFile(readingFrom: path).channelPositions
    }

    @Test("left to libsndfile, a 6-channel WAV says 5.1: its fourth channel is the LFE")
    func libsndfileSaysFivePointOne() throws {
        let p = try #require(try positions(channels: 6, stated: false))
        #expect(p.element(at: 3) == .lowFrequencyEffects && p.element(at: 4) == .surround && p.element(at: 5) == .surround, "\(p)")
    }

    @Test("with the separate-inputs layout, every channel of 3 to 8 reads back as a position weighted 1.0", arguments: 3...8)
    func statedLayoutIsNeutral(channels: Int) throws {
        let p = try #require(try positions(channels: channels, stated: true))
        // Both weighted 1.0 by BS.1770; no LFE left out, no surround raised.
        #expect(p.allSatisfy { $0 == .front || $0 == .rearCenter }, "\(p)")
    }

    @Test("one, two and more than eight channels, and containers without a default mask, are left to libsndfile")
    func leftAlone() {
        let wav = Int32(SF_FORMAT_WAVEX | SF_FORMAT_FLOAT), flac = Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24)
        #expect(SeparateInputsLayout.channelMap(channels: 1, format: wav) == nil)
        #expect(SeparateInputsLayout.channelMap(channels: 2, format: wav) == nil)
        #expect(SeparateInputsLayout.channelMap(channels: 9, format: wav) == nil)
        #expect(SeparateInputsLayout.channelMap(channels: 6, format: flac) == nil)
        #expect(SeparateInputsLayout.channelMap(channels: 6, format: Int32(SF_FORMAT_RF64 | SF_FORMAT_FLOAT))?.count == 6)
    }
}
