import JackwaveDSP
@testable import JackwaveEngine
@testable import JackwaveRunSupport

/// Drives a `RealtimeEngine` offline, as the JACK callback would, over inputs whose every
/// sample tells where it came from: `sample(frame:channel:)`.
final class OfflineEngine {
    let engine: RealtimeEngine
    let channels: Int
    let blockFrames: Int
    private let planes: UnsafeMutablePointer<Float>
    private let inputs: UnsafeMutablePointer<UnsafePointer<Float>>
    /// The engine has no outputs; it is handed one pointer it never touches.
    private let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Frames the callback has been given so far.
    private(set) var nextFrame: Int64 = 0

    init(channels: Int, blockFrames: Int, audioRingFrames: Int, levelRingBlocks: Int = 0) {
        self.channels = channels
        self.blockFrames = blockFrames
        let configuration = EngineConfiguration(inputs: channels, outputs: 0, audioRingFrames: audioRingFrames,
                                                levelRingBlocks: levelRingBlocks, frameLimit: nil, tone: nil)
        engine = RealtimeEngine(configuration: configuration, inputs: [], outputs: [], sampleRate: 48000,
                                signals: EngineSignals())
        planes = .allocate(capacity: channels * blockFrames)
        inputs = .allocate(capacity: channels)
        for c in 0..<channels { (inputs + c).initialize(to: UnsafePointer(planes + c * blockFrames)) }
        outputs = .allocate(capacity: 1)
        outputs.initialize(to: planes)
        engine.signals.started.store(true, ordering: .releasing)
    }

    deinit {
        planes.deallocate()
        inputs.deallocate()
        outputs.deallocate()
    }

    /// A value unique to each frame and channel, exact in a `Float` (below 2^24).
    static func sample(frame: Int64, channel: Int) -> Float {
        Float(frame * 16 + Int64(channel) + 1) / Float(1 << 24)
    }

    /// One cycle of `blockFrames`.
    func cycle() {
        for c in 0..<channels {
            for i in 0..<blockFrames {
                planes[c * blockFrames + i] = Self.sample(frame: nextFrame + Int64(i), channel: c)
            }
        }
        engine.process(inputs: inputs, outputs: outputs, frames: blockFrames)
        nextFrame += Int64(blockFrames)
    }

    /// The frames waiting in the audio ring, interleaved; they stay there.
    func ringContents() -> [Float] {
        guard let ring = engine.audioRing else { return [] }
        let regions = ring.readableRegions()
        return Array(UnsafeBufferPointer(start: regions.first, count: regions.firstCount * channels))
            + Array(UnsafeBufferPointer(start: regions.second, count: regions.secondCount * channels))
    }

    /// What a correct recording holds for frames `range`, interleaved.
    func expected(_ range: Range<Int64>) -> [Float] {
        range.flatMap { f in (0..<channels).map { Self.sample(frame: f, channel: $0) } }
    }

    /// The drop events published so far, consumed.
    func takeDrops() -> [DropEvent] {
        let ring = engine.dropRing
        let regions = ring.readableRegions()
        let events = Array(UnsafeBufferPointer(start: regions.first, count: regions.firstCount))
            + Array(UnsafeBufferPointer(start: regions.second, count: regions.secondCount))
        ring.commitRead(regions.count)
        return events
    }
}
