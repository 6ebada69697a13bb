import JackwaveRunSupport

extension MeasureEngine {
    /// Runs every path of the callback's code once, off the realtime thread, on a small throwaway
    /// engine: before the start, playing and capturing (a self-fed input among them), the
    /// programme's end within a block, and after. Swift instantiates generic metadata on first
    /// use, under a lock and with allocation; doing it before `jack_activate` keeps that out of
    /// the callback.
    public static func warmUp(outputs: Int, inputs: Int) {
        let block = 64
        let programme = [[Float]](repeating: [Float](repeating: 0.25, count: block * 2 + block / 2), count: outputs)
        let engine = MeasureEngine(programme: programme, inputCount: inputs, signals: EngineSignals())
        if inputs > 0 { engine.ownOutputFeeds.feed(input: inputs - 1, from: 0) }
        let inputBuffer = UnsafeMutablePointer<Float>.allocate(capacity: Swift.max(1, inputs) * block)
        let outputBuffer = UnsafeMutablePointer<Float>.allocate(capacity: Swift.max(1, outputs) * block)
        inputBuffer.initialize(repeating: 0.5, count: Swift.max(1, inputs) * block)
        outputBuffer.initialize(repeating: 0, count: Swift.max(1, outputs) * block)
        defer { inputBuffer.deallocate(); outputBuffer.deallocate() }
        let inputList = (0..<inputs).map { UnsafePointer(inputBuffer + $0 * block) }
        let outputList = (0..<outputs).map { outputBuffer + $0 * block }
        inputList.withUnsafeBufferPointer { i in
            outputList.withUnsafeBufferPointer { o in
                let ins = i.baseAddress ?? UnsafePointer(bitPattern: 8)!
                let outs = o.baseAddress ?? UnsafePointer(bitPattern: 8)!
                for cycle in 0..<5 {
                    if cycle == 1 { engine.signals.started.store(true, ordering: .releasing) }
                    engine.checkCycleStart(UInt32(cycle * block * 2), frames: UInt32(block))
                    engine.process(inputs: ins, outputs: outs, frames: block)
                }
            }
        }
        _ = engine.isComplete
    }
}
