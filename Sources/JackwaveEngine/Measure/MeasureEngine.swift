import CJack
import JackwaveDSP
import JackwaveRunSupport
import Synchronization

/// The realtime half of `jackwave measure`: plays a programme computed beforehand and records
/// every input into memory frame for frame with it, so capture frame n is what arrived in the
/// cycle that played programme frame n. All the callback touches is allocated and touched
/// before `jack_activate` (programme and capture in `PinnedMemory`). An input fed by one of
/// jackwave's own outputs records that output's block of the same cycle (`OwnOutputFeeds`),
/// so a direct patch's latency is exactly 0 on every server.
public final class MeasureEngine: @unchecked Sendable {
    public let outputs: Int
    public let inputs: Int
    /// The programme's length, and the capture's.
    public let frames: Int
    public let signals: EngineSignals
    /// Inputs that record one of the engine's own outputs instead of their port.
    public let ownOutputFeeds: OwnOutputFeeds
    /// Capture frames written so far. Stored `.releasing` by the callback after it wrote a
    /// block's samples, loaded `.acquiring` by the main thread before it reads them.
    let captured = Atomic<Int>(0)
    /// The server's frame time (`jack_last_frame_time`) of the cycle that played programme
    /// frame 0, −1 until then; relaxed: one value, read after the run.
    let startFrameTime = Atomic<Int>(-1)
    let programme: UnsafeMutablePointer<Float>
    let capture: UnsafeMutablePointer<Float>
    let programmeBytes: Int
    let captureBytes: Int
    let clientHandle: OpaquePointer?
    let inputPorts: UnsafeMutablePointer<OpaquePointer>
    let outputPorts: UnsafeMutablePointer<OpaquePointer>
    let inputBuffers: UnsafeMutablePointer<UnsafePointer<Float>>
    let outputBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let state: UnsafeMutablePointer<MeasureState>

    /// An engine for `programme` (one array per output, all of one length) and `inputCount`
    /// inputs, on registered ports (none offline: then `process(inputs:outputs:frames:)`).
    public init(programme signal: [[Float]], inputCount: Int, inputs: [JackPort] = [], outputs: [JackPort] = [],
                signals: EngineSignals, client: JackClient? = nil) {
        precondition(!signal.isEmpty && signal.allSatisfy { $0.count == signal[0].count })
        precondition(inputs.isEmpty || inputs.count == inputCount)
        precondition(outputs.isEmpty || outputs.count == signal.count)
        self.outputs = signal.count
        self.inputs = inputCount
        frames = signal[0].count
        self.signals = signals
        clientHandle = client?.handle
        ownOutputFeeds = OwnOutputFeeds(inputs: inputCount)
        programmeBytes = Swift.max(1, self.outputs * frames) * MemoryLayout<Float>.stride
        captureBytes = Swift.max(1, inputCount * frames) * MemoryLayout<Float>.stride
        let length = frames
        let played = PinnedMemory.allocate(byteCount: programmeBytes).bindMemory(to: Float.self, capacity: signal.count * length)
        for (o, samples) in signal.enumerated() {
            samples.withUnsafeBufferPointer { (played + o * length).update(from: $0.baseAddress!, count: length) }
        }
        programme = played
        capture = PinnedMemory.allocate(byteCount: captureBytes).bindMemory(to: Float.self, capacity: Swift.max(1, inputCount * frames))
        inputPorts = .allocate(capacity: Swift.max(1, inputs.count))
        outputPorts = .allocate(capacity: Swift.max(1, outputs.count))
        for (i, p) in inputs.enumerated() { (inputPorts + i).initialize(to: p.handle) }
        for (i, p) in outputs.enumerated() { (outputPorts + i).initialize(to: p.handle) }
        inputBuffers = .allocate(capacity: Swift.max(1, inputCount))
        outputBuffers = .allocate(capacity: Swift.max(1, self.outputs))
        state = .allocate(capacity: 1)
        state.initialize(to: MeasureState())
    }

    deinit {
        PinnedMemory.release(programme, byteCount: programmeBytes)
        PinnedMemory.release(capture, byteCount: captureBytes)
        inputPorts.deallocate()
        outputPorts.deallocate()
        inputBuffers.deallocate()
        outputBuffers.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Rewinds to the programme's start for another attempt. Only while the callback cannot
    /// run: before `jack_activate`, or after `jack_deactivate` returned.
    public func rewind() {
        state.pointee = MeasureState()
        captured.store(0, ordering: .relaxed)
        startFrameTime.store(-1, ordering: .relaxed)
        signals.finished.store(false, ordering: .relaxed)
    }

    /// The server's frame time at which programme frame 0 was played, once it has been.
    public var programmeStartFrameTime: Int? {
        let t = startFrameTime.load(ordering: .relaxed)
        return t < 0 ? nil : t
    }

    /// Whether the whole programme has been played and captured.
    public var isComplete: Bool { captured.load(ordering: .acquiring) >= frames }

    /// The capture, one array per input: only once `isComplete` (or the callback stopped).
    public func capturedSignals() -> [[Float]] {
        let count = captured.load(ordering: .acquiring)
        return (0..<inputs).map { Array(UnsafeBufferPointer(start: capture + $0 * frames, count: count)) }
    }

    /// The C callback JACK calls once per period on its realtime thread; `context` is an
    /// unretained `MeasureEngine`.
    // realtime
    public static let processCallback: JackProcessCallback = { nframes, context in
        Unmanaged<MeasureEngine>.fromOpaque(context!)._withUnsafeGuaranteedRef { engine in
            engine.process(frames: Int(nframes))
        }
        return 0
    }

    /// One period: gathers the port buffers, then plays and captures the block.
    /// Runs on JACK's realtime thread: no allocation, no locks, no system calls.
    // realtime
    @inline(__always)
    func process(frames n: Int) {
        signals.cycles.add(1, ordering: .relaxed)
        let nframes = jack_nframes_t(n)
        if let clientHandle { checkCycleStart(JackClient.cycleStart(clientHandle), frames: nframes) }
        for c in 0..<inputs { inputBuffers[c] = UnsafePointer(JackPort.samples(of: inputPorts[c], frames: nframes)) }
        for o in 0..<outputs { outputBuffers[o] = JackPort.samples(of: outputPorts[o], frames: nframes) }
        processBlock(frames: n)
    }

    /// Counts the frames between the end of the last cycle and the start of this one by the
    /// server's clock, once the measurement has started: cycles the server ran without
    /// jackwave (PipeWire skips a late client), which leave a gap in what it played and heard.
    // realtime
    @inline(__always)
    func checkCycleStart(_ start: jack_nframes_t, frames: jack_nframes_t) {
        let skipped = state.pointee.cycleClock.advance(start: start, frames: frames)
        if skipped > 0 && signals.started.load(ordering: .relaxed) { signals.skippedFrames.add(skipped, ordering: .relaxed) }
        state.pointee.cycleStart = start
    }

    /// The same block over caller-owned buffers (`outputs` and `inputs` of them): for the
    /// warm-up and tests that drive the callback's code offline.
    public func process(inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frames n: Int) {
        inputBuffers.update(from: inputs, count: self.inputs)
        outputBuffers.update(from: outputs, count: self.outputs)
        processBlock(frames: n)
    }

    /// Plays the next frames of the programme and captures the inputs beside them.
    // realtime
    @inline(__always)
    func processBlock(frames n: Int) {
        // `.acquiring` pairs with the main thread's `.releasing` store once the ports are
        // connected: nothing before it is part of the measurement.
        guard signals.started.load(ordering: .acquiring) else {
            for o in 0..<outputs { outputBuffers[o].update(repeating: 0, count: n) }
            return
        }
        let s = state
        let position = s.pointee.position
        if position == 0 { startFrameTime.store(Int(s.pointee.cycleStart), ordering: .relaxed) }
        let count = Swift.max(0, Swift.min(n, frames - position))
        for o in 0..<outputs {
            let out = outputBuffers[o]
            if count > 0 { out.update(from: programme + o * frames + position, count: count) }
            if count < n { (out + count).update(repeating: 0, count: n - count) }
        }
        // An input fed by one of the outputs records the block just played.
        for c in 0..<inputs {
            if let o = ownOutputFeeds.source(of: c), o < outputs { inputBuffers[c] = UnsafePointer(outputBuffers[o]) }
        }
        guard count > 0 else {
            signals.finished.store(true, ordering: .relaxed)
            return
        }
        for c in 0..<inputs { (capture + c * frames + position).update(from: inputBuffers[c], count: count) }
        s.pointee.position = position + count
        captured.store(position + count, ordering: .releasing)
    }
}
