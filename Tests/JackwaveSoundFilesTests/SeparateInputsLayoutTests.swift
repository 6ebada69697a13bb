import CSndfile
import Foundation
import JackwaveSoundFiles
import Testing

/// What a multichannel recording of separate inputs says of its channels' positions.
@Suite("Separate inputs layout")
struct SeparateInputsLayoutTests {
    /// Writes a float WAV of `channels` (with the layout if `stated`) and reads its positions.
    func positions(channels: Int, stated: Bool) throws -> [ChannelPosition]? {
        let path = NSTemporaryDirectory() + "jackwave-layout-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try SoundFile(writingTo: path, format: SoundFormat.named("wav")!.formatWord(depth: .float)!,
                                 channels: channels, sampleRate: 48000)
        if stated, let map = SeparateInputsLayout.channelMap(channels: channels) { #expect(file.setChannelMap(map)) }
        let zeros = [Float](repeating: 0, count: channels * 10)
        _ = zeros.withUnsafeBufferPointer { file.write($0.baseAddress!, count: 10) }
        file.close()
        return try SoundFile(readingFrom: path).channelPositions
    }

    @Test("left to libsndfile, a 6-channel WAV says 5.1: its fourth channel is the LFE")
    func libsndfileSaysFivePointOne() throws {
        let p = try #require(try positions(channels: 6, stated: false))
        #expect(p[3] == .lowFrequencyEffects && p[4] == .surround && p[5] == .surround)
    }

    @Test("with the separate-inputs layout, every channel of 3 to 8 reads back as a position weighted 1.0", arguments: 3...8)
    func statedLayoutIsNeutral(channels: Int) throws {
        let p = try #require(try positions(channels: channels, stated: true))
        // Both weighted 1.0 by BS.1770; no LFE left out, no surround raised.
        #expect(p.allSatisfy { $0 == .front || $0 == .rearCenter }, "\(p)")
    }

    @Test("one, two and more than eight channels are left to libsndfile, which says nothing wrong there")
    func leftAlone() {
        #expect(SeparateInputsLayout.channelMap(channels: 1) == nil)
        #expect(SeparateInputsLayout.channelMap(channels: 2) == nil)
        #expect(SeparateInputsLayout.channelMap(channels: 9) == nil)
    }
}
