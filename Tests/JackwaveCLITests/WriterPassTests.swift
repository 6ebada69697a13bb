import Foundation
import JackwaveDSP
@testable import JackwaveHost
import Testing

/// How long the writer thread sleeps between passes (`RecordingWriter.pollInterval`).
@Suite("The writer's passes")
struct WriterPassTests {
    func writer(channels: Int, ringFrames: Int) throws -> RecordingWriter {
        let dir = NSTemporaryDirectory() + "jackwave-passes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let spec = RecordingSpec(path: dir + "/w.wav", format: SoundFormat.named("wav")!, depth: .float, channels: channels,
                                 inputRate: 48000, fileRate: 48000, dither: false, splitFrames: nil)
        return RecordingWriter(pipeline: try RecordingPipeline(spec: spec),
                               ring: SPSCRing<Float>(minimumCapacity: ringFrames, width: channels),
                               drops: SPSCRing<DropEvent>(minimumCapacity: 4, width: 1), messages: MessageQueue())
    }

    @Test("few channels sleep 200 ms between passes: fewer wake-ups")
    func fewChannels() throws {
        #expect(try writer(channels: 2, ringFrames: 480_000).pollInterval == 200_000)
        #expect(try writer(channels: 16, ringFrames: 480_000).pollInterval == 200_000)
    }

    @Test("a pass hands over about 1 MiB: 171 ms at 32 channels, 100 ms (never less) from 64 up")
    func manyChannels() throws {
        // 1 MiB / (32 × 4 B × 48000/s) = 0.1707 s
        #expect(try writer(channels: 32, ringFrames: 480_000).pollInterval == 170_666)
        #expect(try writer(channels: 64, ringFrames: 480_000).pollInterval == 100_000)
        #expect(try writer(channels: 512, ringFrames: 48_000).pollInterval == 100_000)
    }

    @Test("a small ring is never left more than an eighth of its length")
    func smallRing() throws {
        let w = try writer(channels: 2, ringFrames: 2400)
        let ringSeconds = Double(w.ring.capacity) / 48000
        #expect(w.pollInterval == UInt32(ringSeconds / 8 * 1e6))
        #expect(w.ring.capacity == 4096)   // 85 ms: a sleep of 10.7 ms
        #expect(w.pollInterval == 10_666)
    }
}
