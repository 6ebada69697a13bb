import CJack
import JackwaveDSP
import JackwaveRunSupport

/// The realtime half of jackwave: everything the JACK process callback touches, allocated
/// and touched before activation and reached through one opaque pointer. Every stored
/// property is `let`: the callback mutates only memory behind them that is its own
/// (`state`, `peakScratch`, the port-buffer lists) and the rings and atomics built for it.
public final class RealtimeEngine: @unchecked Sendable {
    public let configuration: EngineConfiguration
    public let signals: EngineSignals
    /// Interleaved input frames for the writer thread; nil when not recording.
    public let audioRing: SPSCRing<Float>?
    /// One slot per block: the peak of every input, then each MIDI input's events in the
    /// block (as `PeakRecord.peak`, a whole number); nil when levels are not consumed.
    public let levelRing: SPSCRing<PeakRecord>?
    /// Gaps in the audio, for the writer to fill with silence.
    public let dropRing: SPSCRing<DropEvent>
    /// One record per block for the take logic (peak, transport); nil when not armed.
    public let blockRing: SPSCRing<BlockRecord>?
    /// Every MIDI event of the recorded MIDI inputs, in whole events (`MidiRecord`); nil
    /// when no MIDI is recorded. Published before the block's audio, so that a reader who
    /// has seen a frame's audio has seen its events.
    public let midiRing: SPSCRing<MidiRecord>?
    /// The LTC input's samples (`--ltc`), one per frame, for the thread that decodes them;
    /// and the stretches it had no room for, published before any sample after them, so
    /// that the decoder knows each sample's frame. Nil without an LTC input.
    public let ltcRing: SPSCRing<Float>?
    public let ltcGaps: SPSCRing<DropEvent>?
    let ltcRingRef: Unmanaged<SPSCRing<Float>>?
    let ltcGapsRef: Unmanaged<SPSCRing<DropEvent>>?
    /// The LTC port's C handle and this cycle's buffer (nil offline and without one).
    let ltcPort: OpaquePointer?
    let ltcBuffer: UnsafeMutablePointer<UnsafePointer<Float>?>
    /// Events and losses per MIDI input.
    public let midiActivity: MidiActivity
    /// Inputs that record one of this engine's own outputs instead of their port.
    public let ownOutputFeeds: OwnOutputFeeds
    /// The rings as unretained references for the callback: binding an `Optional` class
    /// reference retains and releases it (two atomic operations per ring per cycle).
    let audioRingRef: Unmanaged<SPSCRing<Float>>?
    let levelRingRef: Unmanaged<SPSCRing<PeakRecord>>?
    let blockRingRef: Unmanaged<SPSCRing<BlockRecord>>?
    let midiRingRef: Unmanaged<SPSCRing<MidiRecord>>?
    /// The MIDI ports' C handles and this cycle's buffers (nil offline: no MIDI).
    let midiPorts: UnsafeMutablePointer<OpaquePointer>
    let midiBuffers: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// Each MIDI input's events in this cycle, for the level ring.
    let midiBlockEvents: UnsafeMutablePointer<Int32>
    /// The client's C handle, for the cycle's start time; nil offline.
    let clientHandle: OpaquePointer?
    /// The ports' C handles, read by the callback without touching a Swift array.
    let inputPorts: UnsafeMutablePointer<OpaquePointer>
    let outputPorts: UnsafeMutablePointer<OpaquePointer>
    /// This cycle's port buffers, gathered before the block is processed.
    let inputBuffers: UnsafeMutablePointer<UnsafePointer<Float>>
    let outputBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// One peak per input, measured by the fused record-and-meter kernel.
    let peakScratch: UnsafeMutablePointer<Float>
    let state: UnsafeMutablePointer<RealtimeState>

    /// Drop events the writer may owe at once. A gap that goes on is one event, so this
    /// only fills if the writer is stalled through hundreds of separate gaps.
    static let dropRingCapacity = 1024

    /// Builds the engine for already registered ports at the server's sample rate. Offline
    /// drivers (benchmarks, tests) pass no ports and call `process(inputs:outputs:frames:)`.
    public init(configuration: EngineConfiguration, inputs: [JackPort], outputs: [JackPort],
                sampleRate: Int, signals: EngineSignals, client: JackClient? = nil, midiInputs: [JackPort] = [],
                ltcInput: JackPort? = nil) {
        precondition(midiInputs.isEmpty || midiInputs.count == configuration.midiInputs)
        precondition(inputs.isEmpty || inputs.count == configuration.inputs)
        precondition(outputs.isEmpty || outputs.count == configuration.outputs)
        self.configuration = configuration
        self.signals = signals
        clientHandle = client?.handle
        audioRing = configuration.audioRingFrames > 0
            ? SPSCRing(minimumCapacity: configuration.audioRingFrames, width: max(1, configuration.inputs))
            : nil
        levelRing = configuration.levelRingBlocks > 0 && configuration.inputs > 0
            ? SPSCRing(minimumCapacity: configuration.levelRingBlocks, width: configuration.inputs + configuration.midiInputs)
            : nil
        dropRing = SPSCRing(minimumCapacity: Self.dropRingCapacity, width: 1)
        blockRing = configuration.blockRingBlocks > 0 && configuration.inputs > 0
            ? SPSCRing(minimumCapacity: configuration.blockRingBlocks, width: 1)
            : nil
        blockRingRef = blockRing.map { Unmanaged.passUnretained($0) }
        midiRing = configuration.midiRingRecords > 0 ? SPSCRing(minimumCapacity: configuration.midiRingRecords, width: 1) : nil
        midiRingRef = midiRing.map { Unmanaged.passUnretained($0) }
        midiActivity = MidiActivity(ports: configuration.midiInputs)
        ltcRing = configuration.ltcRingFrames > 0 ? SPSCRing(minimumCapacity: configuration.ltcRingFrames, width: 1) : nil
        ltcGaps = configuration.ltcRingFrames > 0 ? SPSCRing(minimumCapacity: Self.dropRingCapacity, width: 1) : nil
        ltcRingRef = ltcRing.map { Unmanaged.passUnretained($0) }
        ltcGapsRef = ltcGaps.map { Unmanaged.passUnretained($0) }
        ltcPort = ltcInput?.handle
        ltcBuffer = .allocate(capacity: 1)
        ltcBuffer.initialize(to: nil)
        midiPorts = .allocate(capacity: max(1, midiInputs.count))
        for (i, p) in midiInputs.enumerated() { (midiPorts + i).initialize(to: p.handle) }
        midiBuffers = .allocate(capacity: max(1, configuration.midiInputs))
        midiBuffers.initialize(repeating: nil, count: max(1, configuration.midiInputs))
        midiBlockEvents = .allocate(capacity: max(1, configuration.midiInputs))
        midiBlockEvents.initialize(repeating: 0, count: max(1, configuration.midiInputs))
        ownOutputFeeds = OwnOutputFeeds(inputs: configuration.inputs)
        audioRingRef = audioRing.map { Unmanaged.passUnretained($0) }
        levelRingRef = levelRing.map { Unmanaged.passUnretained($0) }
        inputPorts = .allocate(capacity: max(1, inputs.count))
        outputPorts = .allocate(capacity: max(1, outputs.count))
        inputBuffers = .allocate(capacity: max(1, configuration.inputs))
        outputBuffers = .allocate(capacity: max(1, configuration.outputs))
        peakScratch = .allocate(capacity: max(1, configuration.inputs))
        peakScratch.initialize(repeating: 0, count: max(1, configuration.inputs))
        for (i, p) in inputs.enumerated() { (inputPorts + i).initialize(to: p.handle) }
        for (i, p) in outputs.enumerated() { (outputPorts + i).initialize(to: p.handle) }
        state = .allocate(capacity: 1)
        var initial = RealtimeState()
        initial.frameLimit = configuration.frameLimit ?? .max
        if let tone = configuration.tone {
            var generator = ToneGenerator(sampleRate: Double(sampleRate), frequency: tone.frequency,
                                          amplitude: tone.amplitude,
                                          fadeFrames: Int((tone.fadeSeconds * Double(sampleRate)).rounded()))
            if let limit = configuration.frameLimit { generator.stop(endingAtFrame: limit) }
            initial.tone = generator
            initial.appliedFrequencyBits = tone.frequency.bitPattern
            initial.appliedAmplitudeBits = tone.amplitude.bitPattern
            signals.toneFrequencyBits.store(tone.frequency.bitPattern, ordering: .relaxed)
            signals.toneAmplitudeBits.store(tone.amplitude.bitPattern, ordering: .relaxed)
        }
        state.initialize(to: initial)
    }

    deinit {
        inputPorts.deallocate()
        outputPorts.deallocate()
        inputBuffers.deallocate()
        outputBuffers.deallocate()
        peakScratch.deallocate()
        midiPorts.deallocate()
        midiBuffers.deallocate()
        midiBlockEvents.deallocate()
        ltcBuffer.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Publishes a gap that was still pending when the callback stopped, so the writer pads
    /// the file to the end of the run. Call only after `jack_deactivate` returned (or the
    /// server died): the main thread then takes over the producer's side of the drop ring.
    public func publishPendingDrop() { _ = publishPendingDropFromCallback() }

    /// Hands the pending gap, if any, to the writer; false if the drop ring is full.
    // realtime
    @inline(__always)
    func publishPendingDropFromCallback() -> Bool {
        Self.publishGap(into: dropRing, start: state.pointee.pendingDropStart, count: &state.pointee.pendingDropCount)
    }

    /// Publishes a gap of `count` frames from `start` (none when 0) into `ring` and clears the
    /// count; false, keeping it, when the ring is full. The audio's drops and the LTC's gaps.
    // realtime
    @inline(__always)
    static func publishGap(into ring: SPSCRing<DropEvent>, start: Int64, count: inout Int64) -> Bool {
        guard count > 0 else { return true }
        let slot = ring.writableRegions(upTo: 1)
        guard slot.count == 1 else { return false }
        slot.first.pointee = DropEvent(atFrame: start, count: count)
        ring.commitWrite(1)
        count = 0
        return true
    }

    /// The C callback JACK calls once per period on its realtime thread.
    /// `context` is an unretained `RealtimeEngine`.
    // realtime
    public static let processCallback: JackProcessCallback = { nframes, context in
        Unmanaged<RealtimeEngine>.fromOpaque(context!)._withUnsafeGuaranteedRef { engine in
            engine.process(frames: Int(nframes))
        }
        return 0
    }

    /// One period: gathers the port buffers, then processes the block.
    /// Runs on JACK's realtime thread: no allocation, no locks, no syscalls.
    // realtime
    @inline(__always)
    func process(frames n: Int) {
        signals.cycles.add(1, ordering: .relaxed)
        let nframes = jack_nframes_t(n)
        if let clientHandle { checkCycleStart(JackClient.cycleStart(clientHandle), frames: nframes) }
        for c in 0..<configuration.inputs {
            inputBuffers[c] = UnsafePointer(JackPort.samples(of: inputPorts[c], frames: nframes))
        }
        for o in 0..<configuration.outputs {
            outputBuffers[o] = JackPort.samples(of: outputPorts[o], frames: nframes)
        }
        for m in 0..<configuration.midiInputs {
            midiBuffers[m] = JackPort.buffer(of: midiPorts[m], frames: nframes)
        }
        if let ltcPort { ltcBuffer.pointee = UnsafePointer(JackPort.samples(of: ltcPort, frames: nframes)) }
        processBlock(frames: n)
    }

    /// Counts the frames the server ran without us since the last cycle (`CycleClock`), once
    /// the run has started.
    // realtime
    @inline(__always)
    func checkCycleStart(_ start: jack_nframes_t, frames: jack_nframes_t) {
        let skipped = state.pointee.cycleClock.advance(start: start, frames: frames)
        if skipped > 0 && signals.started.load(ordering: .relaxed) { signals.skippedFrames.add(skipped, ordering: .relaxed) }
    }

    /// The same block processing over caller-owned buffers instead of JACK's: for
    /// benchmarks and tests that drive the callback's code offline.
    public func process(inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
                        frames n: Int) {
        bind(inputs: inputs, outputs: outputs)
        processBlock(frames: n)
    }

    /// Points the engine at caller-owned buffers for `processBound(frames:)`, once, so that a
    /// benchmark times only the block processing.
    public func bind(inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>) {
        inputBuffers.update(from: inputs, count: configuration.inputs)
        outputBuffers.update(from: outputs, count: configuration.outputs)
    }

    /// Points each input fed by one of the outputs at that output's buffer, which the tone
    /// has just filled (see `OwnOutputFeeds`). Without outputs there is nothing to feed.
    // realtime
    @inline(__always)
    func takeOwnOutputs() {
        guard configuration.outputs > 0 else { return }
        for c in 0..<configuration.inputs {
            if let o = ownOutputFeeds.source(of: c), o < configuration.outputs {
                inputBuffers[c] = UnsafePointer(outputBuffers[o])
            }
        }
    }

    /// Processes one block of the buffers last given to `bind(inputs:outputs:)`.
    public func processBound(frames n: Int) { processBlock(frames: n) }

    /// Records, meters and plays one block from `inputBuffers` to `outputBuffers`.
    // realtime
    @inline(__always)
    func processBlock(frames n: Int) {
        // `.acquiring` pairs with the main thread's `.releasing` store after it has
        // connected the ports: nothing before `started` counts as part of the run.
        guard signals.started.load(ordering: .acquiring) else {
            silenceOutputs(frames: n)
            return
        }
        // The tone first: an input fed by an output records this very block.
        if configuration.outputs > 0 {
            playTone(frames: n)
            takeOwnOutputs()
        }
        let s = state
        let start = s.pointee.streamFrame
        let counted = Int(max(0, min(Int64(n), s.pointee.frameLimit - start)))
        // MIDI first: its events are published before the audio of the same frames.
        if configuration.midiInputs > 0 && counted > 0 { takeMidi(startFrame: start, frames: counted) }
        if counted > 0, let ltcRingRef { ltcRingRef._withUnsafeGuaranteedRef { pushLTC($0, startFrame: start, frames: counted) } }

        if counted > 0 && configuration.inputs > 0 {
            // Recording and metering share one pass over the inputs when both run.
            var measured = false
            // A block without room for its record is dropped from the audio too: the writer
            // takes audio only as far as records cover it (see `pushBlock`).
            let blockRoom = blockRingRef?._withUnsafeGuaranteedRef { $0.writableCount >= 1 } ?? true
            if let audioRingRef {
                measured = audioRingRef._withUnsafeGuaranteedRef {
                    pushAudio($0, startFrame: start, frames: counted,
                              measuringPeaks: levelRingRef != nil || blockRingRef != nil, recordRoom: blockRoom)
                }
            }
            if let levelRingRef {
                levelRingRef._withUnsafeGuaranteedRef {
                    pushPeaks($0, startFrame: start, frames: counted, alreadyMeasured: measured)
                }
            }
            if let blockRingRef {
                blockRingRef._withUnsafeGuaranteedRef {
                    pushBlock($0, startFrame: start, frames: counted, alreadyMeasured: measured)
                }
            }
        }
        let end = start + Int64(counted)
        s.pointee.streamFrame = end
        // `.releasing`: the MIDI thread of a MIDI-only run, which reads this position
        // `.acquiring`, finds every event before it in the MIDI ring (`MidiThread`).
        signals.streamFrames.store(Int(end), ordering: .releasing)
        if end >= s.pointee.frameLimit && (s.pointee.tone?.isFinished ?? true) {
            signals.finished.store(true, ordering: .relaxed)
        }
    }

    /// Publishes this block's peaks: the ones `pushAudio` measured on the way into the
    /// audio ring (`alreadyMeasured`, in `peakScratch`), or measured here.
    // realtime
    @inline(__always)
    func pushPeaks(_ ring: SPSCRing<PeakRecord>, startFrame: Int64, frames: Int, alreadyMeasured: Bool) {
        let region = ring.writableRegions(upTo: 1)
        guard region.count == 1 else {
            signals.droppedLevelBlocks.add(1, ordering: .relaxed)
            return
        }
        let slot = region.first
        for c in 0..<configuration.inputs {
            let peak = alreadyMeasured ? peakScratch[c] : Peak.of(inputBuffers[c], count: frames)
            slot[c] = PeakRecord(startFrame: startFrame, frameCount: Int32(frames), peak: peak)
        }
        for m in 0..<configuration.midiInputs {
            slot[configuration.inputs + m] = PeakRecord(startFrame: startFrame, frameCount: Int32(frames),
                                                        peak: Float(midiBlockEvents[m]))
        }
        ring.commitWrite(1)
    }

    /// Moves the block into the audio ring, whole or not at all; with `measuringPeaks`,
    /// also leaves every input's peak in `peakScratch`. Returns whether it did (false when
    /// the block was dropped or not measured).
    // realtime
    @inline(__always)
    func pushAudio(_ ring: SPSCRing<Float>, startFrame: Int64, frames: Int, measuringPeaks: Bool,
                   recordRoom: Bool = true) -> Bool {
        let s = state
        let region = ring.writableRegions(upTo: frames)
        // Whole block or nothing; and a gap must be announced before any audio after it,
        // so the block also waits for room in the drop ring. A gap that goes on grows.
        guard recordRoom && region.count == frames && publishPendingDropFromCallback() else {
            if s.pointee.pendingDropCount == 0 { s.pointee.pendingDropStart = startFrame }
            s.pointee.pendingDropCount += Int64(frames)
            signals.droppedFrames.add(frames, ordering: .relaxed)
            return false
        }
        let channels = configuration.inputs
        if measuringPeaks {
            let peaks = peakScratch
            for c in 0..<channels { peaks[c] = 0 }
            Interleave.interleaveMeasuringPeaks(from: inputBuffers, channels: channels, sourceOffset: 0,
                                                frames: region.firstCount, into: region.first, peaks: peaks)
            if region.secondCount > 0 {
                Interleave.interleaveMeasuringPeaks(from: inputBuffers, channels: channels,
                                                    sourceOffset: region.firstCount, frames: region.secondCount,
                                                    into: region.second, peaks: peaks)
            }
        } else {
            Interleave.interleave(from: inputBuffers, channels: channels, sourceOffset: 0,
                                  frames: region.firstCount, into: region.first)
            if region.secondCount > 0 {
                Interleave.interleave(from: inputBuffers, channels: channels, sourceOffset: region.firstCount,
                                      frames: region.secondCount, into: region.second)
            }
        }
        ring.commitWrite(frames)
        return measuringPeaks
    }

    // realtime
    @inline(__always)
    func playTone(frames n: Int) {
        let s = state
        guard s.pointee.tone != nil else {
            silenceOutputs(frames: n)
            return
        }
        // Parameter changes from the main thread: each is one independent value (relaxed).
        let f = signals.toneFrequencyBits.load(ordering: .relaxed)
        if f != s.pointee.appliedFrequencyBits {
            s.pointee.appliedFrequencyBits = f
            s.pointee.tone!.setFrequency(Double(bitPattern: f))
        }
        let a = signals.toneAmplitudeBits.load(ordering: .relaxed)
        if a != s.pointee.appliedAmplitudeBits {
            s.pointee.appliedAmplitudeBits = a
            s.pointee.tone!.setAmplitude(Float(bitPattern: a))
        }
        let paused = signals.tonePaused.load(ordering: .relaxed)
        if paused != s.pointee.appliedPaused {
            s.pointee.appliedPaused = paused
            s.pointee.tone!.setPaused(paused)
        }
        if !s.pointee.appliedStop && signals.toneStopRequested.load(ordering: .relaxed) {
            s.pointee.appliedStop = true
            s.pointee.tone!.stop()
        }
        let first = outputBuffers[0]
        s.pointee.tone!.process(into: first, count: n)
        for o in 1..<max(1, configuration.outputs) {
            outputBuffers[o].update(from: first, count: n)
        }
        if s.pointee.tone!.isFinished { signals.toneFinished.store(true, ordering: .relaxed) }
    }

    // realtime
    @inline(__always)
    func silenceOutputs(frames n: Int) {
        for o in 0..<configuration.outputs {
            outputBuffers[o].update(repeating: 0, count: n)
        }
    }
}
