import Foundation
@testable import JackwaveRecording
import JackwaveSoundFiles
import Testing

/// The writer thread's pieces without a server: rounding and dither, rate conversion, the
/// pipeline's length, and the frame limit of classic RIFF files.
@Suite("Recording pipeline")
struct RecordingPipelineTests {
    let dir: String = {
        let path = NSTemporaryDirectory() + "jackwave-filewriting-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func quantized(_ input: [Float], bits: Int, dither: Bool, seed: UInt64 = 1) -> [Float] {
        var q = Quantizer(bits: bits, dither: dither, seed: seed)
        var out = input
        out.withUnsafeMutableBufferPointer { q.process($0.baseAddress!, count: $0.count) }
        return out
    }

    func rms(_ x: [Double]) -> Double { (x.reduce(0) { $0 + $1 * $1 } / Double(x.count)).squareRoot() }

    @Test("TPDF dither on silence at 16 bits has RMS LSB/2, in whole LSBs within ±1")
    func ditherOnSilence() {
        let out = quantized([Float](repeating: 0, count: 1_000_000), bits: 16, dither: true)
        let codes = out.map { Double($0) * 32768 }
        #expect(codes.allSatisfy { $0 == $0.rounded() && abs($0) <= 1 })
        // Triangular dither over ±1 LSB, then rounding: P(±1) = 1/4 each, so RMS = 1/2 LSB.
        #expect(abs(rms(codes) - 0.5) < 0.005, "RMS \(rms(codes)) LSB")
        #expect(abs(codes.reduce(0, +) / Double(codes.count)) < 0.003)
    }

    @Test("without dither, silence stays exactly zero")
    func noDitherSilence() {
        #expect(quantized([Float](repeating: 0, count: 10000), bits: 24, dither: false).allSatisfy { $0 == 0 })
    }

    @Test("without dither, the error is rounding to the nearest LSB (at most half of one)")
    func rounding() {
        let input = (0..<100_000).map { Float(0.001 * sin(Double($0) * 0.0137)) }
        for bits in [16, 24] {
            let scale = Double(1 << (bits - 1))
            let out = quantized(input, bits: bits, dither: false)
            let worst = zip(input, out).map { abs(Double($1) - Double($0)) * scale }.max() ?? 0
            #expect(worst <= 0.5 + 1e-6, "\(bits) bits: worst error \(worst) LSB")
            #expect(out.allSatisfy { Double($0) * scale == (Double($0) * scale).rounded() })
        }
    }

    @Test("dither makes the error independent of the signal: RMS LSB/2 on a quiet tone")
    func ditherOnTone() {
        let input = (0..<200_000).map { Float(0.0003 * sin(Double($0) * 0.0137)) }
        let out = quantized(input, bits: 16, dither: true)
        let errors = zip(input, out).map { (Double($1) - Double($0)) * 32768 }
        #expect(abs(rms(errors) - 0.5) < 0.01, "RMS \(rms(errors)) LSB")
        #expect(errors.map(abs).max()! < 1.5)
    }

    @Test("full scale and beyond clamp to the largest and smallest codes")
    func clamps() {
        let out = quantized([1, 1.5, -1, -2], bits: 16, dither: false)
        #expect(out.map { Int(exactly: (Double($0) * 32768).rounded(.towardZero)) } == [32767, 32767, -32768, -32768])
    }

    /// Runs `input` (mono) through a converter, flushing at the end.
    func resample(_ input: [Float], from inRate: Int, to outRate: Int) throws -> [Float] {
        let r = try Resampler(inputRate: inRate, outputRate: outRate, channels: 1)
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 4096)
        var used = 0
        try input.withUnsafeBufferPointer { inp in
            while used < inp.count {
                let step = try buffer.withUnsafeMutableBufferPointer {
                    try r.process(inp.baseAddress! + used, frames: min(1000, inp.count - used), into: $0.baseAddress!, capacity: 4096)
                }
                used += step.used
                out += buffer.prefix(step.produced)
            }
        }
        while true {
            let step = try buffer.withUnsafeMutableBufferPointer { try r.process(nil, frames: 0, into: $0.baseAddress!, capacity: 4096) }
            if step.produced == 0 { break }
            out += buffer.prefix(step.produced)
        }
        return out
    }

    @Test("the converter keeps time: an impulse at 1 s comes out at 1 s")
    func impulseAlignment() throws {
        var input = [Float](repeating: 0, count: 96000)
        input[48000] = 1
        let out = try resample(input, from: 48000, to: 4096)
        let peak = try #require(out.indices.max { abs(out[$0]) < abs(out[$1]) }, "nothing came out")
        #expect(peak == 4096)
        #expect(abs(out.count - 8192) <= 1, "\(out.count) frames")
    }

    @Test("a tone above the new Nyquist frequency is removed, not folded back (below -140 dBFS)")
    func noAliasing() throws {
        let input = (0..<96000).map { Float(sin(2 * Double.pi * 3000 * Double($0) / 48000)) }
        let out = try resample(input, from: 48000, to: 4096)
        let peak = try #require(out.dropFirst(400).dropLast(400).map(abs).max(), "\(out.count) frames came out")
        #expect(20 * log10(Double(peak)) < -140, "peak \(20 * log10(Double(peak))) dBFS")
    }

    @Test("the pipeline writes exactly round(frames × out/in) frames after the flush")
    func exactLength() throws {
        let spec = RecordingSpec(path: dir + "/len.wav", format: try #require(SoundFormat.named("wav")), depth: .float, channels: 2,
                                 inputRate: 48000, fileRate: 44100, dither: true, splitFrames: nil)
        let pipeline = try RecordingPipeline.opened(spec)
        #expect(pipeline.beginSegment(atStreamFrame: 0))
        let block = [Float](repeating: 0.25, count: 2 * 1001)
        for _ in 0..<97 { #expect(block.withUnsafeBufferPointer { pipeline.push($0.baseAddress!, count: 1001) }) }
        #expect(pipeline.finishSegment())
        #expect(pipeline.files.endSegment())
        let expected = (97 * 1001 * 44100 + 24000) / 48000   // 89207.04 → 89207
        #expect(try SoundFile(readingFrom: spec.path).frames == Int64(expected))
    }

    @Test("classic RIFF formats stop short of 4 GB: the frame limit leaves room for the header")
    func fourGigabyteLimit() throws {
        let spec = RecordingSpec(path: "x.wav", format: try #require(SoundFormat.named("wavex")), depth: .int24, channels: 2,
                                 inputRate: 48000, fileRate: 48000, dither: true, splitFrames: nil)
        let limit = try #require(spec.maximumFramesPerFile)
        #expect(limit * 6 < 0xFFFF_FFFF - 1_000_000)
        #expect(limit * 6 > 0xFFFF_FFFF - 2_000_000)
        let wav = try #require(SoundFormat.named("wav"))
        #expect(RecordingSpec(path: "x.wav", format: wav, depth: .int24, channels: 2, inputRate: 48000,
                              fileRate: 48000, dither: true, splitFrames: nil).maximumFramesPerFile == nil)
    }
}
