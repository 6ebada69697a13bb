import Foundation
@testable import JackwaveLoudness
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// A second implementation on real-ish material: ffmpeg's `ebur128` filter (Debian `ffmpeg`,
/// installed by scripts/setup) reads the same float WAV files, and its integrated loudness
/// must agree with jackwave's within 0.1 LU. Its loudness range (10-Hz short-term blocks,
/// where libebur128 takes one a second) must agree within Tech 3342's 1 LU.
@Suite("ffmpeg cross-check")
struct FFmpegCrossCheckTests {
    static let rate = 48000

    /// A small deterministic generator (xorshift64*), so the material is the same every run.
    struct Noise {
        var state: UInt64
        mutating func next() -> Double {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return Double((state &* 2685821657736338717) >> 11) / Double(1 << 53) * 2 - 1
        }
    }

    /// 60 s of stereo noise (the channels independent) whose level follows a slow envelope:
    /// a 20-s swing between −38 and −14 dBFS RMS, then a hold and a 6-dB step down.
    static func envelopedNoise() -> [Float] {
        var noise = Noise(state: 0x9E37_79B9_7F4A_7C15)
        let n = 60 * rate
        var out = [Float](repeating: 0, count: 2 * n)
        for f in 0..<n {
            let t = Double(f) / Double(rate)
            let dB = t < 40 ? -26 + 12 * sin(2 * .pi * t / 20) : (t < 50 ? -20 : -26)
            let a = pow(10, dB / 20) * 1.7   // uniform noise's RMS is 1/√3
            out[2 * f] = Float(a * noise.next())
            out[2 * f + 1] = Float(a * noise.next())
        }
        return out
    }

    /// 60 s of speech-like bursts: "syllables" of low-passed noise, 80–300 ms with quick
    /// attacks and slower decays, in "words" of 1–5 with 30–120 ms between, separated by
    /// 0.2–1.5 s pauses; the right channel is the left 3 dB down with a little noise of its own.
    static func speechLikeBursts() -> [Float] {
        var noise = Noise(state: 0x2545_F491_4F6C_DD1D)
        func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * (noise.next() + 1) / 2 }
        let n = 60 * rate
        var left = [Double](repeating: 0, count: n)
        var f = Int(0.3 * Double(rate))
        var low = 0.0
        while f < n {
            for _ in 0..<Int(uniform(1, 5.99)) {
                let length = Int(uniform(0.08, 0.3) * Double(rate))
                let level = pow(10, uniform(-24, -8) / 20)
                for i in 0..<length where f + i < n {
                    let x = Double(i) / Double(length)
                    let envelope = min(1, x / 0.1) * (1 - x) * (1 - x) * 1.5
                    low += 0.25 * (noise.next() - low)          // one-pole low-pass, about 2 kHz
                    left[f + i] = level * envelope * low * 3
                }
                f += length + Int(uniform(0.03, 0.12) * Double(rate))
            }
            f += Int(uniform(0.2, 1.5) * Double(rate))
        }
        var out = [Float](repeating: 0, count: 2 * n)
        for i in 0..<n {
            out[2 * i] = Float(left[i])
            out[2 * i + 1] = Float(left[i] * 0.708 + 0.0005 * noise.next())
        }
        return out
    }

    /// Writes interleaved stereo floats to a float WAV in the test's scratch directory.
    static func write(_ samples: [Float], name: String) throws -> String {
        let path = NSTemporaryDirectory() + "jackwave-ffmpeg-\(UUID().uuidString)-\(name).wav"
        let format = try #require(SoundFormat.named("wav")?.formatWord(depth: .float))
        let file = try SoundFile(writingTo: path, format: format, channels: 2, sampleRate: rate)
        _ = samples.withUnsafeBufferPointer { file.write($0.baseAddress!, count: samples.count / 2) }
        #expect(file.close() == nil)
        return path
    }

    /// ffmpeg's final integrated loudness and loudness range for `path`, to 0.001: the last
    /// 100-ms frame's `lavfi.r128.I` and `lavfi.r128.LRA`, which `ametadata` prints.
    static func ffmpeg(_ path: String) throws -> (integrated: Double, range: Double) {
        let log = path + ".r128.txt"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let out = try Run.tool("/usr/bin/env", ["ffmpeg", "-nostdin", "-nostats", "-hide_banner", "-loglevel", "error", "-i", path,
                                                "-af", "ebur128=peak=true:metadata=1,ametadata=mode=print:file=\(log)", "-f", "null", "-"],
                               server: nil)
        #expect(out.status == 0, "ffmpeg failed: is it installed? (scripts/setup installs it): \(out.stderr)")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        func last(_ key: String) throws -> Double {
            let line = try #require(text.split(separator: "\n").last { $0.hasPrefix(key + "=") })
            return try #require(Double(line.dropFirst(key.count + 1)))
        }
        return (try last("lavfi.r128.I"), try last("lavfi.r128.LRA"))
    }

    static let materials: [(String, @Sendable () -> [Float])] = [
        ("noise with a loudness envelope", envelopedNoise), ("speech-like bursts", speechLikeBursts),
    ]

    @Test("integrated loudness agrees with ffmpeg's ebur128 within 0.1 LU, loudness range within 1 LU",
          arguments: materials.map(\.0))
    func agreesWithFFmpeg(material: String) throws {
        let make = try #require(Self.materials.first { $0.0 == material }?.1)
        let path = try Self.write(make(), name: material.replacingOccurrences(of: " ", with: "-"))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ours = try #require(FileLoudness.measure(try SoundFile(readingFrom: path))).summary
        let theirs = try Self.ffmpeg(path)
        #expect(ours.integrated > -40 && ours.integrated < -10, "\(ours.integrated)")
        #expect(abs(ours.integrated - theirs.integrated) <= 0.1, "jackwave \(ours.integrated), ffmpeg \(theirs.integrated)")
        #expect(abs(ours.loudnessRange - theirs.range) <= 1, "jackwave \(ours.loudnessRange), ffmpeg \(theirs.range)")
    }
}
