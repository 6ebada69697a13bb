import Foundation
@testable import JackwaveCLI
import JackwaveHost
import JackwaveLevelStream
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// A scratch directory per test.
private func scratch() -> String {
    let path = NSTemporaryDirectory() + "jackwave-levels-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Writes `frames` frames of a deterministic 2-channel float WAV at 44.1 kHz and returns
/// the interleaved samples.
private func writeTestFile(_ path: String, frames: Int) throws -> [Float] {
    var samples = [Float](repeating: 0, count: frames * 2)
    for f in 0..<frames {
        let t = Double(f) / 44100
        samples[2 * f] = Float(0.8 * sin(2 * .pi * 440 * t) * (0.5 + 0.5 * sin(2 * .pi * 3 * t)))
        samples[2 * f + 1] = f % 1000 == 17 ? -1.25 : Float(0.01 * sin(2 * .pi * 97 * t))
    }
    let format = try #require(SoundFormat.forPath(path)?.formatWord(depth: .float))
    let file = try SoundFile(writingTo: path, format: format, channels: 2,
                             sampleRate: 44100)
    #expect(samples.withUnsafeBufferPointer { file.write($0.baseAddress!, count: frames) } == frames)
    file.close()
    return samples
}

/// The expected stream, computed the plain way: per interval of `interval` frames (or per
/// block), the largest |sample| of every block that overlaps it; no dropouts (the test
/// file has none: no run of exact zeros, no block repeated).
private func reference(_ samples: [Float], channels: Int, block: Int, interval: Int?) -> String {
    let frames = samples.count / channels
    var blockPeaks: [(start: Int, count: Int, peaks: [Float])] = []
    for start in stride(from: 0, to: frames, by: block) {
        let count = min(block, frames - start)
        var peaks = [Float](repeating: 0, count: channels)
        for f in start..<start + count {
            for c in 0..<channels { peaks[c] = max(peaks[c], abs(samples[f * channels + c])) }
        }
        blockPeaks.append((start, count, peaks))
    }
    var out = "frame,time,dropouts," + (1...channels).map { "in_\($0)" }.joined(separator: ",") + "\n"
    func row(_ frame: Int, _ peaks: [Float]) {
        out += "\(frame),\(LevelStreamFormatter.time(frame: Int64(frame), sampleRate: 44100)),0,"
            + peaks.map(\.description).joined(separator: ",") + "\n"
    }
    guard let interval else {
        for b in blockPeaks { row(b.start, b.peaks) }
        return out
    }
    for start in stride(from: 0, to: frames, by: interval) {
        var peaks = [Float](repeating: 0, count: channels)
        for b in blockPeaks where b.start < start + interval && b.start + b.count > start {
            for c in 0..<channels { peaks[c] = max(peaks[c], b.peaks[c]) }
        }
        row(start, peaks)
    }
    return out
}

@Suite("LevelsCommand")
struct LevelsCommandTests {
    @Test("levels FILE --block N equals a plain per-block peak computation")
    func offlinePerBlock() throws {
        let dir = scratch()
        let samples = try writeTestFile(dir + "/in.wav", frames: 10_000)
        #expect(LevelsCommand.run([dir + "/in.wav", "--block", "256", "-o", dir + "/out.csv"]) == 0)
        let written = try String(contentsOfFile: dir + "/out.csv", encoding: .utf8)
        #expect(written == reference(samples, channels: 2, block: 256, interval: nil))
        #expect(written.split(separator: "\n").count == 1 + 40)   // 39 full blocks and one of 16 frames
    }

    @Test("levels with --level-interval equals the plain interval maximum, partial last interval included")
    func offlineInterval() throws {
        let dir = scratch()
        let samples = try writeTestFile(dir + "/in.wav", frames: 10_000)
        // 10 ms at 44.1 kHz = 441 frames; blocks of 256 straddle intervals.
        #expect(LevelsCommand.run([dir + "/in.wav", "--block", "256", "--level-interval", "10", "-o", dir + "/out.csv"]) == 0)
        let written = try String(contentsOfFile: dir + "/out.csv", encoding: .utf8)
        #expect(written == reference(samples, channels: 2, block: 256, interval: 441))
    }

    @Test("levels writes JSON Lines for a .jsonl output")
    func offlineJSONLines() throws {
        let dir = scratch()
        _ = try writeTestFile(dir + "/in.wav", frames: 3000)
        #expect(LevelsCommand.run([dir + "/in.wav", "-o", dir + "/out.jsonl"]) == 0)
        let lines = try String(contentsOfFile: dir + "/out.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)   // 1024 + 1024 + 952 frames
        let third = try #require(lines.element(at: 2), "\(lines)")
        let last = try #require(try JSONSerialization.jsonObject(with: Data(third.utf8)) as? [String: Any])
        #expect((last["frame"] as? NSNumber)?.intValue == 2048)
        #expect((last["peak"] as? [Any])?.count == 2)
        #expect((last["dropouts"] as? NSNumber)?.intValue == 0)
    }

    @Test("levels counts a file's dropouts into the rows they begin in: a block of zeros and a repeated block")
    func offlineDropouts() throws {
        let dir = scratch()
        let frames = 44100
        var samples = (0..<frames).map { Float(0.5 * sin(2 * Double.pi * 997 * Double($0) / 44100)) }
        for f in 10_000..<10_256 { samples[f] = 0 }                             // zeros, in the block of 9984
        for f in 0..<256 { samples[80 * 256 + f] = samples[79 * 256 + f] }       // block 80 repeats block 79
        let format = try #require(SoundFormat.forPath(dir + "/d.wav")?.formatWord(depth: .float))
        let file = try SoundFile(writingTo: dir + "/d.wav", format: format, channels: 1, sampleRate: 44100)
        #expect(samples.withUnsafeBufferPointer { file.write($0.baseAddress!, count: frames) } == frames)
        file.close()
        #expect(LevelsCommand.run([dir + "/d.wav", "--block", "256", "-o", dir + "/d.csv"]) == 0)
        let rows = try String(contentsOfFile: dir + "/d.csv", encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",") }
        try #require(rows.allSatisfy { $0.count >= 3 }, "a row of fewer than 3 fields: \(rows)")
        let counted = rows.compactMap { row -> (frame: Int, count: Int)? in
            guard let frame = Int(row[0]), let n = Int(row[2]), n > 0 else { return nil }
            return (frame, n)
        }
        #expect(counted.map(\.frame) == [9984, 80 * 256] && counted.allSatisfy { $0.count == 1 }, "\(counted)")
    }

    @Test("A file that cannot be read is exit 2 and creates no output")
    func unreadableInput() {
        let dir = scratch()
        _ = FileManager.default.createFile(atPath: dir + "/junk.wav", contents: Data("not audio".utf8))
        #expect(LevelsCommand.run([dir + "/junk.wav", "-o", dir + "/out.csv"]) == 2)
        #expect(LevelsCommand.run([dir + "/missing.wav", "-o", dir + "/out.csv"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv"))
    }

    @Test("An existing output without --force is exit 2 and is left alone")
    func existingOutput() throws {
        let dir = scratch()
        _ = try writeTestFile(dir + "/in.wav", frames: 100)
        _ = FileManager.default.createFile(atPath: dir + "/out.csv", contents: Data("keep".utf8))
        #expect(LevelsCommand.run([dir + "/in.wav", "-o", dir + "/out.csv"]) == 2)
        #expect(try String(contentsOfFile: dir + "/out.csv", encoding: .utf8) == "keep")
        #expect(LevelsCommand.run([dir + "/in.wav", "-o", dir + "/out.csv", "--force"]) == 0)
    }

    @Test("Bad arguments are usage errors")
    func badArguments() {
        #expect(throws: UsageError.self) { try LevelsCommand.parse([]) }
        #expect(throws: UsageError.self) { try LevelsCommand.parse(["a.wav", "b.wav"]) }
        #expect(throws: UsageError.self) { try LevelsCommand.parse(["a.wav", "--block", "0"]) }
        #expect(throws: UsageError.self) { try LevelsCommand.parse(["a.wav", "--levels-format", "xml"]) }
        #expect(throws: UsageError.self) { try LevelsCommand.parse(["a.wav", "--level-interval", "0"]) }
        #expect(throws: UsageError.self) { try LevelsCommand.parse(["a.wav", "--bogus"]) }
    }

    @Test("Defaults: stdout, blocks of 1024, no interval")
    func defaults() throws {
        let o = try LevelsCommand.parse(["a.wav"])
        #expect(o == LevelsCommand.Options(input: "a.wav", block: 1024, intervalMilliseconds: nil, output: "-",
                                           format: nil, force: false))
    }
}
