import Foundation
import JackwaveDSP
@testable import JackwaveRecording
@testable import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// What the realtime engine does when the writer falls behind, driven offline: whole blocks
/// or nothing go into the ring, and every gap is announced, in place, before the audio after it.
@Suite("The engine's drops and gaps")
struct EngineDropTests {
    /// Two channels, blocks of 64 frames, a ring of 256 frames: the fifth block finds it full.
    func engine() -> OfflineEngine { OfflineEngine(channels: 2, blockFrames: 64, audioRingFrames: 256) }

    @Test("a block that does not fit in the audio ring is dropped whole, and its frames are counted")
    func wholeBlockDropped() {
        let e = engine()
        for _ in 0..<5 { e.cycle() }
        #expect(e.engine.audioRing?.readableCount == 256)
        #expect(e.ringContents() == e.expected(0..<256))
        #expect(e.engine.signals.droppedFrames.load(ordering: .relaxed) == 64)
        #expect(e.engine.signals.streamFrames.load(ordering: .relaxed) == 320)
    }

    @Test("a block that fits only in part is dropped whole: no partial frame or block reaches the ring")
    func partialRoomDropsWholeBlock() throws {
        let e = engine()
        for _ in 0..<4 { e.cycle() }
        try #require(e.engine.audioRing).commitRead(32)   // room for 32 frames, half a block
        e.cycle()
        #expect(e.engine.audioRing?.readableCount == 224)
        #expect(e.ringContents() == e.expected(32..<256))
        #expect(e.engine.signals.droppedFrames.load(ordering: .relaxed) == 64)
    }

    @Test("a gap is announced at its first frame with its length, before the audio that follows it")
    func gapAnnouncedBeforeAudio() throws {
        let e = engine()
        for _ in 0..<6 { e.cycle() }   // frames 256..<384 dropped
        #expect(e.takeDrops().isEmpty, "a gap that may go on is not published yet")
        try #require(e.engine.audioRing).commitRead(256)
        e.cycle()                        // frames 384..<448 fit
        #expect(e.takeDrops() == [DropEvent(atFrame: 256, count: 128)])
        #expect(e.ringContents() == e.expected(384..<448))
    }

    @Test("a gap that goes on grows into one event, however many blocks it spans")
    func longGapIsOneEvent() throws {
        let e = engine()
        for _ in 0..<104 { e.cycle() }   // 100 blocks dropped
        try #require(e.engine.audioRing).commitRead(256)
        e.cycle()
        #expect(e.takeDrops() == [DropEvent(atFrame: 256, count: 6400)])
        #expect(e.engine.signals.droppedFrames.load(ordering: .relaxed) == 6400)
    }

    @Test("a block waits for room in the drop ring too: audio never overtakes its gap")
    func audioWaitsForItsGap() throws {
        let e = engine()
        // Fill the drop ring with separate gaps: drop one block, make room for exactly one.
        let capacity = e.engine.dropRing.capacity
        for _ in 0..<4 { e.cycle() }
        for _ in 0..<capacity {
            e.cycle()                                   // dropped
            try #require(e.engine.audioRing).commitRead(64)
            e.cycle()                                   // publishes the gap, then fits
        }
        #expect(e.engine.dropRing.readableCount == capacity)
        e.cycle()                                       // dropped: the ring is full again
        try #require(e.engine.audioRing).commitRead(64)
        e.cycle()                                       // room for audio, none for its gap
        #expect(e.engine.dropRing.readableCount == capacity)
        let gaps = e.takeDrops()
        #expect(gaps.count == capacity)
        e.cycle()                                       // now the gap goes first, then audio
        let lastGap = try #require(gaps.last, "no gap published")
        #expect(e.takeDrops() == [DropEvent(atFrame: lastGap.atFrame + 128, count: 128)])
    }

    @Test("a gap still open when the callback stops is published by publishPendingDrop")
    func pendingGapPublishedAtStop() {
        let e = engine()
        for _ in 0..<7 { e.cycle() }
        #expect(e.takeDrops().isEmpty)
        e.engine.publishPendingDrop()
        #expect(e.takeDrops() == [DropEvent(atFrame: 256, count: 192)])
        e.engine.publishPendingDrop()
        #expect(e.takeDrops().isEmpty, "published once")
    }

    @Test("peaks that do not fit in the level ring are counted as lost blocks")
    func levelBlocksLost() throws {
        let e = OfflineEngine(channels: 3, blockFrames: 32, audioRingFrames: 0, levelRingBlocks: 2)
        for _ in 0..<5 { e.cycle() }
        #expect(e.engine.levelRing?.readableCount == 2)
        #expect(e.engine.signals.droppedLevelBlocks.load(ordering: .relaxed) == 3)
        let slot = try #require(e.engine.levelRing).readableRegions(upTo: 1).first
        #expect(slot[2].peak == OfflineEngine.sample(frame: 31, channel: 2))
        #expect(slot[0].startFrame == 0 && slot[0].frameCount == 32)
    }

    @Test("the writer fills a gap with silence in its place: the file keeps the timeline")
    func writerFillsGapWithSilence() throws {
        let dir = NSTemporaryDirectory() + "jackwave-drops-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = RecordingSpec(path: dir + "/gap.wav", format: try #require(SoundFormat.named("wav")), depth: .float, channels: 2,
                                 inputRate: 48000, fileRate: 48000, dither: false, splitFrames: nil)
        let e = engine()
        let messages = MessageQueue()
        let ring = try #require(e.engine.audioRing)
        let writer = RecordingWriter(pipeline: try RecordingPipeline.opened(spec), ring: ring,
                                     drops: e.engine.dropRing, inputRate: 48000, messages: messages, takes: nil)
        for _ in 0..<6 { e.cycle() }       // 0..<256 in the ring, 256..<384 dropped
        writer.start()
        // The writer empties the ring; wait for that (bounded), as the callback would not.
        let deadline = Date().addingTimeInterval(30)
        while ring.writableCount < 256 && Date() < deadline { usleep(1000) }
        #expect(ring.writableCount == 256)
        e.cycle()
        e.cycle()                          // 384..<512
        e.engine.publishPendingDrop()
        writer.requestStop(.drainThenStop)
        #expect(writer.wait(timeout: 30))
        #expect(writer.failure == nil)

        let file = try SoundFile(readingFrom: spec.path)
        #expect(file.frames == 512)
        var samples = [Float](repeating: -1, count: 512 * 2)
        #expect(samples.withUnsafeMutableBufferPointer { file.read(into: $0.baseAddress!, count: 512) } == 512)
        #expect(Array(samples[0..<512]) == e.expected(0..<256))
        #expect(samples[512..<768].allSatisfy { $0 == 0 })
        #expect(Array(samples[768..<1024]) == e.expected(384..<512))
        #expect(messages.drain().map(\.plain).contains { $0.contains("128") }, "the gap is reported with its length")
    }
}
