import JackwaveRunSupport

extension RealtimeEngine {
    /// Runs every path of the callback's code once, off the realtime thread, on a small
    /// throwaway engine shaped like `configuration`. Swift instantiates generic metadata and
    /// caches conformances on first use, under a lock and with allocation; doing it here, before
    /// `jack_activate`, keeps that out of the callback (above all in an unoptimized build).
    public static func warmUp(like configuration: EngineConfiguration, sampleRate: Int) {
        let frames = 64
        var small = configuration
        small.audioRingFrames = configuration.audioRingFrames > 0 ? frames : 0
        small.levelRingBlocks = configuration.levelRingBlocks > 0 ? 1 : 0
        small.blockRingBlocks = configuration.blockRingBlocks > 0 ? 1 : 0
        small.midiRingRecords = configuration.midiRingRecords > 0 ? 64 : 0
        small.ltcRingFrames = configuration.ltcRingFrames > 0 ? frames : 0
        small.frameLimit = Int64(frames * 6)
        // No fade, so that the tone is steady from its second sample: the rotor lanes (SIMD
        // vectors, generic code in an unoptimized build) run here, and across a block edge.
        small.tone?.fadeSeconds = 0
        let engine = RealtimeEngine(configuration: small, inputs: [], outputs: [], sampleRate: sampleRate,
                                    signals: EngineSignals())
        let inputs = UnsafeMutablePointer<Float>.allocate(capacity: max(1, small.inputs) * frames)
        let outputs = UnsafeMutablePointer<Float>.allocate(capacity: max(1, small.outputs) * frames)
        inputs.initialize(repeating: 0.5, count: max(1, small.inputs) * frames)
        outputs.initialize(repeating: 0, count: max(1, small.outputs) * frames)
        defer { inputs.deallocate(); outputs.deallocate() }
        let inputList = (0..<small.inputs).map { UnsafePointer(inputs + $0 * frames) }
        let outputList = (0..<small.outputs).map { outputs + $0 * frames }
        engine.signals.started.store(true, ordering: .releasing)
        // The LTC input reads a port buffer when it has one: here, the first input's samples.
        if engine.ltcRing != nil { engine.ltcBuffer.pointee = UnsafePointer(inputs) }
        engine.warmUpMidi()
        inputList.withUnsafeBufferPointer { i in
            outputList.withUnsafeBufferPointer { o in
                let ins = i.baseAddress ?? UnsafePointer(bitPattern: 8)!
                let outs = o.baseAddress ?? UnsafePointer(bitPattern: 8)!
                for block in 0..<6 {
                    if block == 3 { engine.signals.toneStopRequested.store(true, ordering: .relaxed) }
                    engine.process(inputs: ins, outputs: outs, frames: frames)
                    // Block 0 fills both rings, block 1 is dropped; then make room, so that
                    // block 2 publishes the gap before its audio.
                    if block == 1 {
                        if let ring = engine.audioRing { ring.commitRead(ring.readableCount) }
                        if let ring = engine.levelRing { ring.commitRead(ring.readableCount) }
                        if let ring = engine.blockRing { ring.commitRead(ring.readableCount) }
                        if let ring = engine.ltcRing { ring.commitRead(ring.readableCount) }
                    }
                }
            }
        }
    }
}
