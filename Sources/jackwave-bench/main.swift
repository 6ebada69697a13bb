// jackwave-bench: the realtime callback's cost, measured offline.
//
// Drives `RealtimeEngine.process(inputs:outputs:frames:)` (the code the JACK callback runs,
// minus fetching port buffers) over caller-owned buffers, draining the rings after every
// block as the writer and level threads would, and compares the time with `memcpy` of the
// same bytes into a destination as large as the audio ring: the least any recorder must do.
//
//   jackwave-bench [--quick] [--channels 2,16,64,256] [--frames 64,256,1024] [--engine-only]
//                  [--calls N] [--armed] [--dropouts] [--midi-file]
//
// --dropouts times the writer thread's dropout detection instead (DropoutBench.swift).
// --midi-file times bringing a large `.mid` up to date instead (MidiFileBench.swift).
//
// --armed times only what arming adds (`--trigger`, `--transport` offline: no transport to
// ask): record + peaks with and without the per-block record the take logic reads.
//
// --engine-only times only the full engine (record + peaks + tone), nothing else: for
// profilers (scripts/bench runs it under callgrind). --calls N makes every timed case
// exactly N calls, once, instead of runs of a fixed duration: a fixed workload, so that an
// instruction count (callgrind) is the same from run to run whatever the machine's load.
//
// Prints a markdown table; times are nanoseconds per channel-frame (one sample of one
// input), the best of several runs.
import Foundation
import JackwaveDSP
import JackwaveEngine
import JackwaveHost
import JackwaveRunSupport

/// Audio ring size for every case, in frames: 1.4 s at 48 kHz. The memcpy baseline cycles
/// through as many bytes, so both pay the same cache misses (from 16 channels on, the ring
/// is larger than this machine's L2, from 128 on than its L3).
let ringFrames = 65536
let sampleRate = 48000

struct Options {
    var channels = [2, 16, 64, 256]
    var frames = [64, 256, 1024]
    /// Minimum duration of one timed run, and how many runs (the best counts).
    var runSeconds = 0.08
    var runs = 5
    var engineOnly = false
    /// Exactly this many calls per case instead of timed runs (`--calls`).
    var calls: Int? = nil
    /// Only the armed table (`--armed`).
    var armed = false
    /// Only the dropout detection's table (`--dropouts`).
    var dropouts = false
    /// Only the MIDI file's refresh table (`--midi-file`).
    var midiFile = false
    /// Shorter runs (`--quick`).
    var quick = false
}

func parseOptions() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    func list(_ text: String?) -> [Int] {
        let values = (text ?? "").split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
        if values.isEmpty {
            FileHandle.standardError.write(Data("jackwave-bench: expected a list like 2,16,64\n".utf8))
            exit(2)
        }
        return values
    }
    while let arg = args.popFirst() {
        switch arg {
        case "--quick": o.runSeconds = 0.02; o.runs = 3; o.quick = true
        case "--channels": o.channels = list(args.popFirst())
        case "--frames": o.frames = list(args.popFirst())
        case "--engine-only": o.engineOnly = true
        case "--calls": o.calls = list(args.popFirst())[0]
        case "--armed": o.armed = true
        case "--dropouts": o.dropouts = true
        case "--midi-file": o.midiFile = true
        default:
            FileHandle.standardError.write(Data("usage: jackwave-bench [--quick] [--channels LIST] [--frames LIST] [--engine-only] [--calls N]\n".utf8))
            exit(2)
        }
    }
    return o
}

func nowNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// Runs `block` in batches until `seconds` have passed, `runs` times; returns the best
/// time per call in nanoseconds. With `exactly`, runs it that many times, once, and returns
/// their mean.
func bestTimePerCall(seconds: Double, runs: Int, exactly calls: Int? = nil, _ block: () -> Void) -> Double {
    if let calls {
        let t0 = nowNanoseconds()
        for _ in 0..<calls { block() }
        return Double(nowNanoseconds() - t0) / Double(calls)
    }
    // Warm-up, and a batch size that makes the clock reads negligible.
    var batch = 1
    while true {
        let t0 = nowNanoseconds()
        for _ in 0..<batch { block() }
        let spent = nowNanoseconds() - t0
        if spent > 2_000_000 { break }
        batch *= 2
    }
    var best = Double.infinity
    for _ in 0..<runs {
        var calls = 0
        let t0 = nowNanoseconds()
        let budget = UInt64(seconds * 1e9)
        var spent: UInt64 = 0
        while spent < budget {
            for _ in 0..<batch { block() }
            calls += batch
            spent = nowNanoseconds() - t0
        }
        best = min(best, Double(spent) / Double(calls))
    }
    return best
}

/// Where jackd 1.9 keeps port buffers: one per port structure in a shared table, about
/// 33.8 KB apart (an 8200-sample buffer plus three port names). The inputs here are laid
/// out the same way, because the spacing matters: sources exactly a power of two apart
/// contend for the same L1 sets and make interleaving look twice as slow as it is.
let portStride = 8192 + 8 + 256

/// Per-channel input buffers filled with a deterministic noise (peaks vary per block, so
/// nothing about the data is easier than real audio), and two output buffers.
final class Buffers {
    let channels: Int, frames: Int
    let inputs: UnsafeMutablePointer<UnsafePointer<Float>>
    let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let storage: UnsafeMutablePointer<Float>
    private let outputStorage: UnsafeMutablePointer<Float>

    init(channels: Int, frames: Int) {
        self.channels = channels
        self.frames = frames
        let stride = max(frames, 8192) + (portStride - 8192)
        storage = .allocate(capacity: channels * stride)
        storage.initialize(repeating: 0, count: channels * stride)
        var seed: UInt32 = 12345
        inputs = .allocate(capacity: channels)
        for c in 0..<channels {
            inputs[c] = UnsafePointer(storage + c * stride)
            for f in 0..<frames {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                storage[c * stride + f] = Float(Int32(bitPattern: seed)) / Float(Int32.max)
            }
        }
        outputStorage = .allocate(capacity: 2 * frames)
        outputStorage.initialize(repeating: 0, count: 2 * frames)
        outputs = .allocate(capacity: 2)
        outputs[0] = outputStorage
        outputs[1] = outputStorage + frames
    }

    deinit {
        storage.deallocate()
        inputs.deallocate()
        outputStorage.deallocate()
        outputs.deallocate()
    }
}

/// What one engine does per block.
struct Work {
    var record: Bool
    var peaks: Bool
    var tone: Bool
    /// Armed: one block record per block for the take logic.
    var armed = false
}

/// Nanoseconds per block of `engine.process` with `work`, the rings drained after each.
func timeEngine(_ work: Work, buffers b: Buffers, options o: Options) -> Double {
    var configuration = EngineConfiguration(
        inputs: b.channels, outputs: work.tone ? 2 : 0,
        audioRingFrames: work.record ? ringFrames : 0,
        levelRingBlocks: work.peaks ? 64 : 0, frameLimit: nil,
        tone: work.tone ? ToneSettings(frequency: 440, amplitude: 0.1, fadeSeconds: 0.02) : nil)
    configuration.blockRingBlocks = work.armed ? 64 : 0
    let signals = EngineSignals()
    let engine = RealtimeEngine(configuration: configuration, inputs: [], outputs: [],
                                sampleRate: sampleRate, signals: signals)
    signals.started.store(true, ordering: .releasing)
    // The harness must not add reference counting of its own to what it times.
    let spareAudio = SPSCRing<Float>(minimumCapacity: 1, width: 1)
    let spareLevels = SPSCRing<PeakRecord>(minimumCapacity: 1, width: 1)
    let spareBlocks = SPSCRing<BlockRecord>(minimumCapacity: 1, width: 1)
    let drainsAudio = engine.audioRing != nil, drainsLevels = engine.levelRing != nil
    let drainsBlocks = engine.blockRing != nil
    let blocks = Unmanaged.passUnretained(engine.blockRing ?? spareBlocks)
    // Reached as the callback reaches its engine: unmanaged, guaranteed for the call.
    // (`unowned(unsafe)` captures still cost a retain and a release per use.)
    let audio = Unmanaged.passUnretained(engine.audioRing ?? spareAudio)
    let levels = Unmanaged.passUnretained(engine.levelRing ?? spareLevels)
    let unretainedEngine = Unmanaged.passUnretained(engine)
    // Nor may it reach the buffers through the `Buffers` object: the closure captures plain
    // values only. The port buffers are bound once, as memcpy below is handed its
    // pointers; gathering them is libjack's cost in every client.
    engine.bind(inputs: b.inputs, outputs: b.outputs)
    let frames = b.frames
    let time = bestTimePerCall(seconds: o.runSeconds, runs: o.runs, exactly: o.calls) {
        unretainedEngine._withUnsafeGuaranteedRef { $0.processBound(frames: frames) }
        // The consumers' side, on this thread: release what was written. (The writer's
        // copy to disk is not the callback's cost.)
        if drainsAudio { audio._withUnsafeGuaranteedRef { $0.commitRead($0.readableCount) } }
        if drainsLevels { levels._withUnsafeGuaranteedRef { $0.commitRead($0.readableCount) } }
        if drainsBlocks { blocks._withUnsafeGuaranteedRef { $0.commitRead($0.readableCount) } }
    }
    if signals.droppedFrames.load(ordering: .relaxed) != 0 { fatalError("bench ring overflowed") }
    withExtendedLifetime((engine, spareAudio, spareLevels, spareBlocks)) {}
    return time
}

/// Nanoseconds per block of copying every input into a rotating destination the size of
/// the audio ring: the bytes a recorder must move, with nothing else done to them.
func timeMemcpy(buffers b: Buffers, options o: Options) -> Double {
    let blockBytes = b.channels * b.frames * MemoryLayout<Float>.size
    let ringBytes = ringFrames * b.channels * MemoryLayout<Float>.size
    let destination = UnsafeMutableRawPointer.allocate(byteCount: ringBytes, alignment: 64)
    destination.initializeMemory(as: UInt8.self, repeating: 0, count: ringBytes)
    defer { destination.deallocate() }
    var offset = 0
    let frameBytes = b.frames * MemoryLayout<Float>.size
    let inputs = b.inputs, channels = b.channels
    return bestTimePerCall(seconds: o.runSeconds, runs: o.runs) {
        for c in 0..<channels {
            memcpy(destination + offset + c * frameBytes, inputs[c], frameBytes)
        }
        offset += blockBytes
        if offset + blockBytes > ringBytes { offset = 0 }
    }
}

/// Checks `Interleave.interleave` (and the fused `interleaveMeasuringPeaks`) against the obvious definition on awkward shapes (odd
/// channel counts, frame counts off the 4-frame tiles, unaligned sources and destinations)
/// before any of it is timed: a fast wrong kernel must not make a good table.
func verifyInterleave() {
    for channels in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 64, 256] {
        for frames in [0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1024] {
            for offset in [0, 1, 3] {
                let buffers = (0..<channels).map { c -> UnsafeMutablePointer<Float> in
                    let p = UnsafeMutablePointer<Float>.allocate(capacity: frames + offset)
                    for f in 0..<(frames + offset) { p[f] = Float(c * 100_000 + f) }
                    return p
                }
                let sources = buffers.map { UnsafePointer($0) }
                // One spare sample on each side, and the destination one float off alignment.
                let count = channels * frames
                var out = [Float](repeating: -1, count: count + 3)
                sources.withUnsafeBufferPointer { s in
                    out.withUnsafeMutableBufferPointer { o in
                        Interleave.interleave(from: s.baseAddress!, channels: channels, sourceOffset: offset,
                                              frames: frames, into: o.baseAddress! + 1)
                    }
                }
                var ok = out[0] == -1 && out[count + 1] == -1 && out[count + 2] == -1
                for f in 0..<frames {
                    for c in 0..<channels where out[1 + f * channels + c] != Float(c * 100_000 + f + offset) { ok = false }
                }
                // The fused kernel: the same samples, and each channel's largest (the last).
                var fused = [Float](repeating: -1, count: count + 3)
                var peaks = [Float](repeating: 0, count: channels)
                sources.withUnsafeBufferPointer { s in
                    fused.withUnsafeMutableBufferPointer { o in
                        peaks.withUnsafeMutableBufferPointer { p in
                            Interleave.interleaveMeasuringPeaks(from: s.baseAddress!, channels: channels,
                                                                sourceOffset: offset, frames: frames,
                                                                into: o.baseAddress! + 1, peaks: p.baseAddress!)
                        }
                    }
                }
                if fused != out { ok = false }
                for c in 0..<channels where peaks[c] != (frames > 0 ? Float(c * 100_000 + frames - 1 + offset) : 0) {
                    ok = false
                }
                buffers.forEach { $0.deallocate() }
                if !ok { fatalError("Interleave.interleave or interleaveMeasuringPeaks is wrong for \(channels) channels, \(frames) frames, offset \(offset)") }
            }
        }
    }
}

func format(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

@inline(never)
func enginePeak(_ samples: UnsafePointer<Float>, count: Int) -> Float { Peak.of(samples, count: count) }

/// Per-sample cost of the callback's kernels on one block already in L1: the block peak
/// (per input), the tone (once per block, copied to every output) and memcpy.
func kernelTable(options o: Options) {
    print("")
    print("Kernels on one in-cache block of one channel: ns per sample")
    print("")
    print("| samples | Peak.of | ToneGenerator.process | memcpy | Peak.of / memcpy | tone / memcpy |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in o.frames {
        let b = Buffers(channels: 1, frames: n)
        let samples = UnsafeMutablePointer(mutating: b.inputs[0])
        let out = UnsafeMutablePointer<Float>.allocate(capacity: n)
        defer { out.deallocate() }
        // Each call stores into the block it reads, so the optimizer cannot hoist the
        // (otherwise loop-invariant) kernel out of the timing loop.
        var sink: Float = 0
        let peak = bestTimePerCall(seconds: o.runSeconds, runs: o.runs) {
            sink = enginePeak(samples, count: n); samples[n - 1] = sink * 0.5
        }
        var tone = ToneGenerator(sampleRate: Double(sampleRate), frequency: 440, amplitude: 0.1, fadeFrames: 960)
        let toneTime = bestTimePerCall(seconds: o.runSeconds, runs: o.runs) { tone.process(into: out, count: n) }
        let copy = bestTimePerCall(seconds: o.runSeconds, runs: o.runs) {
            memcpy(out, samples, n * 4); samples[n - 1] = out[0] * 0.5
        }
        if sink.isNaN || tone.isFinished { print("") }
        let perSample = Double(n)
        print("| \(n) | \(format(peak / perSample)) | \(format(toneTime / perSample)) | \(format(copy / perSample)) | \(format(peak / copy, 2)) | \(format(toneTime / copy, 2)) |")
    }
}

let options = parseOptions()
if options.engineOnly {
    for channels in options.channels {
        for frames in options.frames {
            let b = Buffers(channels: channels, frames: frames)
            let t = timeEngine(Work(record: true, peaks: true, tone: true), buffers: b, options: options)
            print("\(channels) channels × \(frames) frames: \(format(t / Double(channels * frames))) ns per channel-frame")
        }
    }
    exit(0)
}
if options.dropouts {
    dropoutTable(options: options)
    exit(0)
}
if options.midiFile {
    midiFileTable(options: options)
    exit(0)
}
if options.armed {
    print("Armed, offline: ns per channel-frame (best of \(options.runs) runs of \(Int(options.runSeconds * 1000)) ms)")
    print("")
    print("| channels | frames | record+peaks | armed (+ block record) | armed / not |")
    print("|---:|---:|---:|---:|---:|")
    for channels in options.channels {
        for frames in options.frames {
            let b = Buffers(channels: channels, frames: frames)
            let perChannelFrame = Double(channels * frames)
            let plain = timeEngine(Work(record: true, peaks: true, tone: false), buffers: b, options: options) / perChannelFrame
            let armed = timeEngine(Work(record: true, peaks: true, tone: false, armed: true), buffers: b, options: options) / perChannelFrame
            print("| \(channels) | \(frames) | \(format(plain)) | \(format(armed)) | \(format(armed / plain, 2)) |")
        }
    }
    exit(0)
}
verifyInterleave()
print("Callback cost, offline: ns per channel-frame (best of \(options.runs) runs of \(Int(options.runSeconds * 1000)) ms); audio ring \(ringFrames) frames")
print("")
print("| channels | frames | record | peaks | record+peaks | record+peaks+tone | memcpy | record/memcpy | (record+peaks)/memcpy | (+tone)/memcpy |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
var worstRatio = 0.0
for channels in options.channels {
    for frames in options.frames {
        let b = Buffers(channels: channels, frames: frames)
        let perChannelFrame = Double(channels * frames)
        let record = timeEngine(Work(record: true, peaks: false, tone: false), buffers: b, options: options) / perChannelFrame
        let peaks = timeEngine(Work(record: false, peaks: true, tone: false), buffers: b, options: options) / perChannelFrame
        let both = timeEngine(Work(record: true, peaks: true, tone: false), buffers: b, options: options) / perChannelFrame
        let all = timeEngine(Work(record: true, peaks: true, tone: true), buffers: b, options: options) / perChannelFrame
        let copy = timeMemcpy(buffers: b, options: options) / perChannelFrame
        worstRatio = max(worstRatio, both / copy)
        print("| \(channels) | \(frames) | \(format(record)) | \(format(peaks)) | \(format(both)) | \(format(all)) | \(format(copy)) | \(format(record / copy, 2)) | \(format(both / copy, 2)) | \(format(all / copy, 2)) |")
    }
}
print("")
print("worst (record+peaks)/memcpy: \(format(worstRatio, 2)) (target: within 4)")
kernelTable(options: options)
