import Foundation
import JackwaveDSP
@testable import JackwaveRecording
@testable import JackwaveRunSupport
import JackwaveSoundFiles
import Testing

/// How long the writer thread sleeps between passes (`RecordingWriter.pollInterval`).
@Suite("The writer's passes")
struct WriterPassTests {
    /// The sleep of a writer for `channels` at 48 kHz with a ring of at least `ringFrames`,
    /// and that ring's capacity; the writer's file is closed and removed.
    func poll(channels: Int, ringFrames: Int) throws -> (interval: UInt32, ringCapacity: Int) {
        let dir = NSTemporaryDirectory() + "jackwave-passes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = RecordingSpec(path: dir + "/w.wav", format: try #require(SoundFormat.named("wav")), depth: .float, channels: channels,
                                 inputRate: 48000, fileRate: 48000, dither: false, splitFrames: nil)
        let writer = RecordingWriter(pipeline: try RecordingPipeline.opened(spec),
                                     ring: SPSCRing<Float>(minimumCapacity: ringFrames, width: channels),
                                     drops: SPSCRing<DropEvent>(minimumCapacity: 4, width: 1), inputRate: 48000,
                                     messages: MessageQueue(), takes: nil)
        defer { writer.pipeline?.files.close() }
        return (writer.pollInterval, writer.ring.capacity)
    }

    @Test("few channels sleep 200 ms between passes: fewer wake-ups")
    func fewChannels() throws {
        #expect(try poll(channels: 2, ringFrames: 480_000).interval == 200_000)
        #expect(try poll(channels: 16, ringFrames: 480_000).interval == 200_000)
    }

    @Test("a pass hands over about 1 MiB: 171 ms at 32 channels, 100 ms (never less) from 64 up")
    func manyChannels() throws {
        // 1 MiB / (32 × 4 B × 48000/s) = 0.1707 s
        #expect(try poll(channels: 32, ringFrames: 480_000).interval == 170_666)
        #expect(try poll(channels: 64, ringFrames: 480_000).interval == 100_000)
        #expect(try poll(channels: 512, ringFrames: 48_000).interval == 100_000)
    }

    @Test("a small ring is never left more than an eighth of its length")
    func smallRing() throws {
        let small = try poll(channels: 2, ringFrames: 2400)
        #expect(small.ringCapacity == 4096)   // 85 ms: a sleep of 10.7 ms
        #expect(small.interval == 10_666)
    }

    @Test("after refreshHeaders returns, the file's header holds every frame pushed before the call")
    func refreshOnRequest() throws {
        let dir = NSTemporaryDirectory() + "jackwave-refresh-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/saved.wav"
        let spec = RecordingSpec(path: path, format: try #require(SoundFormat.named("wav")), depth: .float, channels: 2,
                                 inputRate: 48000, fileRate: 48000, dither: false, splitFrames: nil)
        let ring = SPSCRing<Float>(minimumCapacity: 480_000, width: 2)
        let writer = RecordingWriter(pipeline: try RecordingPipeline.opened(spec), ring: ring,
                                     drops: SPSCRing<DropEvent>(minimumCapacity: 4, width: 1), inputRate: 48000,
                                     messages: MessageQueue(), takes: nil)
        writer.start()
        defer { writer.requestStop(.stopNow); _ = writer.wait(timeout: 10) }
        var pushed = 0
        for round in 1...3 {
            let frames = [Float](repeating: Float(round) / 8, count: 2 * 4_801 * round)
            #expect(frames.withUnsafeBufferPointer { ring.write($0) })
            pushed += 4_801 * round
            #expect(writer.refreshHeaders(timeout: 10))
            #expect(try SoundFile(readingFrom: path).frames == Int64(pushed), "after round \(round)")
        }
    }
}
