import Foundation
@testable import JackwaveCLI
import JackwaveHost
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// `jackwave loudness`: what it prints for one file and for several, and what it refuses.
@Suite("LoudnessCommand")
struct LoudnessCommandTests {
    let dir: String = {
        let path = NSTemporaryDirectory() + "jackwave-loudness-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Writes `seconds` of a 1 kHz sine peaking at `dBFS` on every channel and returns the path.
    func sine(_ name: String, dBFS: Double, seconds: Double = 4, channels: Int = 2, rate: Int = 48000) throws -> String {
        let path = dir + "/" + name
        let n = Int(seconds * Double(rate))
        let samples = sineWave(frames: n, frequency: 1000, sampleRate: Double(rate), amplitude: pow(10, dBFS / 20), channels: channels)
        let format = try #require(SoundFormat.forPath(path)?.formatWord(depth: name.hasSuffix(".flac") ? .int24 : .float))
        let file = try SoundFile(writingTo: path, format: format, channels: channels, sampleRate: rate)
        _ = samples.withUnsafeBufferPointer { file.write($0.baseAddress!, count: n) }
        file.close()
        return path
    }

    @Test("one file: six measures, one a line, values to 0.1 aligned on the decimal point, then the channels")
    func singleFile() throws {
        let path = try sine("a.wav", dBFS: -20)
        let text = LoudnessReport.text(try #require(LoudnessCommand.measure([path])), overall: 0)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines == [
            path,
            "  integrated        -20.0 LUFS",
            "  loudness range      0.0 LU",
            "  momentary max     -20.0 LUFS",
            "  short-term max    -20.0 LUFS",
            "  true peak         -20.0 dBTP",
            "  sample peak       -20.0 dBFS",
            "  channels        2 channels as the file places them",
        ])
    }

    @Test("several files: a row each with the name last, and the overall line is their pooled integrated loudness")
    func table() throws {
        let a = try sine("a.wav", dBFS: -30, seconds: 10)
        let b = try sine("b.flac", dBFS: -20, seconds: 10, rate: 44100)
        let measured = try #require(LoudnessCommand.measure([a, b]))
        let lines = LoudnessCommand.report(measured, json: false).split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        let rowA = try #require(lines.element(at: 2), "\(lines)"), rowB = try #require(lines.element(at: 3), "\(lines)")
        let overall = try #require(lines.element(at: 4), "\(lines)")
        #expect(rowA.hasPrefix("  -30.0    0.0  -30.0  -30.0  -30.0  -30.0  ") && rowA.hasSuffix(a))
        #expect(rowB.hasPrefix("  -20.0    0.0  -20.0  -20.0  -20.0  -20.0  ") && rowB.hasSuffix(b))
        // 10 s at -30 and 10 s at -20 LUFS pass the relative gate together: their mean energy.
        #expect(overall.hasPrefix("  -22.6 ") && overall.hasSuffix("overall: integrated loudness of all 2 files as one programme"))
    }

    @Test("--json: one object with every file's measures to 0.001 and the overall loudness; silence is null")
    func json() throws {
        let a = try sine("a.wav", dBFS: -23)
        let quiet = try sine("quiet \"q\".wav", dBFS: -200, channels: 6)
        let measured = try #require(LoudnessCommand.measure([a, quiet]))
        let text = LoudnessCommand.report(measured, json: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.count == 2)
        let first = try #require(files.element(at: 0), "\(files)"), second = try #require(files.element(at: 1), "\(files)")
        #expect(first["file"] as? String == a)
        #expect(second["file"] as? String == quiet)
        let integrated = try #require(first["integrated_lufs"] as? Double)
        let firstMeasured = try #require(measured.first, "nothing measured")
        #expect(abs(integrated - firstMeasured.summary.integrated) < 0.0005)
        #expect(abs(integrated - -23) < 0.05)
        #expect(first["true_peak_dbtp_per_channel"] as? [Double] == [-23, -23])
        #expect(second["integrated_lufs"] is NSNull)
        #expect(second["channel_weights"] as? [Double] == [1, 1, 1, 0, 1.41, 1.41])   // WAVEX 6 channels: 5.1
        #expect(second["channel_weighting"] as? String == "file")
        #expect(abs(try #require(object["overall_integrated_lufs"] as? Double) - integrated) < 0.0005)
    }

    @Test("a file that cannot be read is one line and exit 2, even after a good one")
    func unreadable() throws {
        let good = try sine("a.wav", dBFS: -20, seconds: 1)
        _ = FileManager.default.createFile(atPath: dir + "/junk.wav", contents: Data("not audio".utf8))
        #expect(LoudnessCommand.run([good, dir + "/junk.wav", "--json"]) == 2)
        #expect(LoudnessCommand.run([dir + "/missing.flac"]) == 2)
        #expect(throws: UsageError.self) { try LoudnessCommand.check(dir + "/junk.wav") }
    }

    @Test("no FILE, an empty FILE or an unknown option is bad usage")
    func usage() {
        #expect(LoudnessCommand.run([]) == 2)
        #expect(LoudnessCommand.run([""]) == 2)
        #expect(LoudnessCommand.run(["--jsn", "x.wav"]) == 2)
        #expect(throws: LoudnessCommand.whichFile) { try LoudnessCommand.parse(["--json"]) }
    }

    @Test("values round to a tenth with their sign, silence is -inf")
    func rounding() {
        #expect(LoudnessReport.oneDecimal(-0.05) == "-0.1")
        #expect(LoudnessReport.oneDecimal(-0.04) == "0.0")
        #expect(LoudnessReport.oneDecimal(-23.04) == "-23.0")
        #expect(LoudnessReport.oneDecimal(-.infinity) == "-inf")
        #expect(LoudnessReport.fixed(1.0005, decimals: 3) == "1.001")
        #expect(LoudnessReport.fixed(-0.02, decimals: 3) == "-0.020")
    }
}
