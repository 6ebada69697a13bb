import CSndfile
import Foundation
import JackwaveSoundFiles
import Testing

/// Markers as WAV cue points, written through libsndfile and read back.
@Suite("Cue points")
struct CueTests {
    let dir = NSTemporaryDirectory() + "jackwave-cues-\(UUID().uuidString)"

    init() throws { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }

    /// A 24-bit stereo WAV of `frames` frames with a `bext` chunk; its samples.
    func makeFile(_ path: String, frames: Int) throws -> [Float] {
        let file = try SoundFile(writingTo: path, format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_24), channels: 2, sampleRate: 48000)
        file.setBroadcastInfo(BroadcastInfo(start: WallClockTime.now(), offset: 4800, sampleRate: 48000))
        let samples = (0..<frames * 2).map { Float(($0 * 7919) % 65536 - 32768) / 32768 }
        _ = samples.withUnsafeBufferPointer { file.write($0.baseAddress!, count: frames) }
        #expect(file.close() == nil)
        return samples
    }

    func read(_ path: String) throws -> (samples: [Float], cues: [(number: Int, frame: Int64)], timeReference: UInt64?) {
        let file = try SoundFile(readingFrom: path)
        var buffer = [Float](repeating: 0, count: Int(file.frames) * file.channels)
        _ = buffer.withUnsafeMutableBufferPointer { b in b.baseAddress.map { file.read(into: $0, count: Int(file.frames)) } }
        return (buffer, file.cues, file.broadcastInfo?.timeReference)
    }

    @Test("cues added after recording read back numbered at their frames, with the audio and bext untouched")
    func addedCuesReadBack() throws {
        let path = dir + "/m.wav"
        let samples = try makeFile(path, frames: 10_000)
        let before = try read(path)
        try SoundFile.addCues([10, 4_321, 9_999], to: path)
        let after = try read(path)
        #expect(after.cues.map(\.number) == [1, 2, 3])
        #expect(after.cues.map(\.frame) == [10, 4_321, 9_999])
        #expect(after.samples == before.samples && after.samples.count == samples.count)
        #expect(after.timeReference != nil && after.timeReference == before.timeReference)
        #expect(!FileManager.default.fileExists(atPath: path + ".markers"))
    }
}
