import CSndfile
import Foundation
import JackwaveHost
import Testing

/// The writer thread's pieces without a server: rounding and dither, rate conversion, the
/// `bext` chunk, and what libsndfile makes of a `.wav` file past 4 GB.
@Suite("File writing")
struct FileWritingTests {
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
        #expect(out.map { Int(Double($0) * 32768) } == [32767, 32767, -32768, -32768])
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
        let peak = out.indices.max { abs(out[$0]) < abs(out[$1]) }!
        #expect(peak == 4096)
        #expect(abs(out.count - 8192) <= 1, "\(out.count) frames")
    }

    @Test("a tone above the new Nyquist frequency is removed, not folded back (below -140 dBFS)")
    func noAliasing() throws {
        let input = (0..<96000).map { Float(sin(2 * Double.pi * 3000 * Double($0) / 48000)) }
        let out = try resample(input, from: 48000, to: 4096)
        let peak = out[400..<(out.count - 400)].map(abs).max()!
        #expect(20 * log10(Double(peak)) < -140, "peak \(20 * log10(Double(peak))) dBFS")
    }

    @Test("the pipeline writes exactly round(frames × out/in) frames after the flush")
    func exactLength() throws {
        let spec = RecordingSpec(path: dir + "/len.wav", format: SoundFormat.named("wav")!, depth: .float, channels: 2,
                                 inputRate: 48000, fileRate: 44100, dither: true, splitFrames: nil)
        let pipeline = try RecordingPipeline(spec: spec)
        let block = [Float](repeating: 0.25, count: 2 * 1001)
        for _ in 0..<97 { #expect(block.withUnsafeBufferPointer { pipeline.push($0.baseAddress!, count: 1001) }) }
        #expect(pipeline.finish())
        let expected = (97 * 1001 * 44100 + 24000) / 48000   // 89207.04 → 89207
        #expect(try SoundFile(readingFrom: spec.path).frames == Int64(expected))
    }

    @Test("the bext chunk round-trips through libsndfile")
    func bextRoundTrip() throws {
        let path = dir + "/bext.wav"
        let start = WallClockTime(seconds: 1_700_000_000, nanoseconds: 250_000_000)
        let info = BroadcastInfo(start: start, offset: 0, sampleRate: 48000)
        let file = try SoundFile(writingTo: path, format: SoundFormat.named("wav")!.formatWord(depth: .int16)!, channels: 1, sampleRate: 48000)
        #expect(file.setBroadcastInfo(info))
        let zeros = [Float](repeating: 0, count: 100)
        _ = zeros.withUnsafeBufferPointer { file.write($0.baseAddress!, count: 100) }
        file.close()
        let back = try #require(try SoundFile(readingFrom: path).broadcastInfo)
        #expect(back == info)
        #expect(back.originator == "jackwave")
        #expect(back.timeReference == UInt64((start.secondsSinceLocalMidnight * 48000).rounded()))
    }

    @Test("a later piece's bext continues the first one's time reference, frame for frame")
    func bextContinues() {
        let start = WallClockTime(seconds: 1_700_000_000, nanoseconds: 999_000_000)
        let first = BroadcastInfo(start: start, offset: 0, sampleRate: 4096)
        let third = BroadcastInfo(start: start, offset: 2 * 12288, sampleRate: 4096)
        #expect(third.timeReference == first.timeReference + 24576)
        #expect(third.originationTime != first.originationTime)  // 6 s later
    }

    @Test("the ISO 8601 start has milliseconds and the UTC offset")
    func iso8601() {
        let t = WallClockTime(seconds: 1_700_000_000, nanoseconds: 123_456_789)
        let iso = t.iso8601
        #expect(iso.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.123[+-]\d\d:\d\d$"#, options: .regularExpression) != nil, "\(iso)")
        #expect(iso.hasPrefix(t.localDate + "T" + t.localTime))
    }

    /// A short `.wav` as jackwave writes it (16-bit, bext), left open.
    func shortWav(_ path: String) throws -> SoundFile {
        let format = SoundFormat.named("wav")!
        let file = try SoundFile(writingTo: path, format: format.formatWord(depth: .int16)!, channels: 2, sampleRate: 48000,
                                 rf64AutoDowngrade: format.downgradesToWAV)
        file.setBroadcastInfo(BroadcastInfo(start: .now(), offset: 0, sampleRate: 48000))
        let ramp = (0..<2000).map { Float($0) / 32768 }
        #expect(ramp.withUnsafeBufferPointer { file.write($0.baseAddress!, count: 1000) } == 1000)
        return file
    }

    @Test("a short .wav is a plain RIFF/WAVE file")
    func shortWavIsRiff() throws {
        let path = dir + "/short.wav"
        try shortWav(path).close()
        let head = try #require(FileHandle(forReadingAtPath: path)).readData(ofLength: 12)
        #expect(String(decoding: head.prefix(4), as: UTF8.self) == "RIFF")
        #expect(String(decoding: head.suffix(4), as: UTF8.self) == "WAVE")
        let read = try SoundFile(readingFrom: path)
        #expect(read.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_WAVEX))
        #expect(read.frames == 1000)
    }

    /// Honest about what it tests: libsndfile decides RIFF or RF64 from the file's real length
    /// (`fstat`) at each header update, so a file made sparse past 4 GB behind its back gets
    /// the RF64 header a 4 GB recording would, without writing 4 GB.
    @Test("a .wav that passes 4 GB becomes RF64 (a sparse file), keeping its bext and audio")
    func pastFourGigabytesIsRF64() throws {
        let path = dir + "/big.wav"
        let file = try shortWav(path)
        file.updateHeader()
        let size: Int64 = 5_000_000_000
        guard truncate(path, off_t(size)) == 0 else { throw CocoaError(.fileWriteOutOfSpace) }
        defer { unlink(path) }
        file.updateHeader()
        file.close()
        let head = try #require(FileHandle(forReadingAtPath: path)).readData(ofLength: 16)
        #expect(String(decoding: head.prefix(4), as: UTF8.self) == "RF64")
        #expect(String(decoding: head.suffix(4), as: UTF8.self) == "ds64")
        let read = try SoundFile(readingFrom: path)
        #expect(read.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_RF64))
        #expect(read.frames > 1_249_000_000)   // (5e9 - header) / 4 bytes per frame
        #expect(read.broadcastInfo?.originator == "jackwave")
        var back = [Float](repeating: 0, count: 2000)
        #expect(back.withUnsafeMutableBufferPointer { read.read(into: $0.baseAddress!, count: 1000) } == 1000)
        #expect(back == (0..<2000).map { Float($0) / 32768 })
    }

    @Test("classic RIFF formats stop short of 4 GB: the frame limit leaves room for the header")
    func fourGigabyteLimit() {
        let spec = RecordingSpec(path: "x.wav", format: SoundFormat.named("wavex")!, depth: .int24, channels: 2,
                                 inputRate: 48000, fileRate: 48000, dither: true, splitFrames: nil)
        let limit = try! #require(spec.maximumFramesPerFile)
        #expect(limit * 6 < 0xFFFF_FFFF - 1_000_000)
        #expect(limit * 6 > 0xFFFF_FFFF - 2_000_000)
        #expect(RecordingSpec(path: "x.wav", format: SoundFormat.named("wav")!, depth: .int24, channels: 2, inputRate: 48000,
                              fileRate: 48000, dither: true, splitFrames: nil).maximumFramesPerFile == nil)
    }

    @Test("--formats lists what this libsndfile writes, one line each with extension and depths")
    func formatList() {
        let lines = FormatCatalog.lines()
        #expect(lines.contains { $0.hasPrefix("wav ") && $0.contains(".wav") && $0.contains("16 24 32 float") })
        #expect(lines.contains { $0.hasPrefix("flac ") && $0.contains("16 24 ") && !$0.contains("float ") })
        #expect(lines.allSatisfy { $0.contains(".") })
    }
}
