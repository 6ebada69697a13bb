import Foundation
@testable import JackwaveCLI
import JackwaveHost
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveVocabulary
import Testing

/// Parsing and checking of the file options: `--rate`, `--format`, `--bits`, `--no-dither`,
/// `--split`, `--print-start`, `--formats`. Every refusal is one line (exit code 2).
@Suite("File options")
struct FileOptionsTests {
    func refusal(_ arguments: [String]) -> String? {
        do throws(UsageError) {
            _ = try RunOptionsParser.parse(arguments)
            return nil
        } catch {
            return error.message.line
        }
    }

    @Test("--rate takes a whole number of hertz for the file")
    func rate() throws {
        #expect(try RunOptionsParser.parse(["--record", "x.wav", "--rate", "4096"]).recording.fileRate == 4096)
    }

    @Test("--rate refuses rates below 1000 Hz, above 768000 Hz and fractions", arguments: ["999", "768001", "44.1", "0", "-48000", "fast"])
    func badRate(value: String) {
        let message = refusal(["--record", "x.wav", "--rate", value])
        #expect(message?.hasPrefix("--rate") == true, "\(String(describing: message))")
    }

    @Test("--format takes every name jackwave knows", arguments: ["wav", "wavex", "rf64", "w64", "flac", "ogg", "opus", "mp3", "caf", "aiff"])
    func formatNames(name: String) throws {
        #expect(try RunOptionsParser.parse(["--record", "x.snd", "--format", name]).recording.format?.name == name)
    }

    @Test("an unknown --format is refused with the list of names")
    func unknownFormat() {
        #expect(refusal(["--record", "x.wav", "--format", "aac"])
                == "--format must be one of wav, wavex, rf64, w64, flac, ogg, opus, mp3, caf, aiff, not 'aac'")
    }

    @Test("--no-dither turns dither off, and dither is on by default")
    func noDither() throws {
        #expect(try RunOptionsParser.parse(["--record", "x.wav", "--bits", "16"]).recording.dither)
        #expect(try !RunOptionsParser.parse(["--record", "x.wav", "--bits", "16", "--no-dither"]).recording.dither)
    }

    @Test("--no-dither is accepted with any depth, a no-op where nothing is rounded")
    func noDitherWithFloat() throws {
        #expect(try !RunOptionsParser.parse(["--record", "x.wav", "--bits", "float", "--no-dither"]).recording.dither)
        #expect(try !RunOptionsParser.parse(["--record", "x.flac", "--no-dither"]).recording.dither)
    }

    @Test("--no-dither takes no value")
    func noDitherValue() {
        #expect(refusal(["--record", "x.wav", "--no-dither=yes"]) == "--no-dither takes no value")
    }

    @Test("--split takes positive seconds", arguments: ["0", "-1", "abc", "700000"])
    func badSplit(value: String) {
        let message = refusal(["--record", "x.wav", "--split", value])
        #expect(message?.hasPrefix("--split") == true, "\(String(describing: message))")
    }

    @Test("--split accepts fractions of a second from 1 s up, and refuses shorter pieces, naming the value")
    func split() throws {
        #expect(try RunOptionsParser.parse(["--record", "x.wav", "--split", "1.25"]).recording.splitSeconds == 1.25)
        #expect(refusal(["--record", "x.wav", "--split", "0.00003"]) == "--split: seconds must be between 1 and 604800, not 0.00003")
    }

    @Test("file options need --record", arguments: [["--rate", "4096"], ["--format", "wav"], ["--no-dither"], ["--split", "5"]])
    func needRecord(options: [String]) {
        #expect(refusal(options) == "\(options[0]) needs --record")
    }

    @Test("--print-start is accepted with or without a recording")
    func printStart() throws {
        #expect(try RunOptionsParser.parse(["--print-start"]).recording.printStart)
        #expect(try RunOptionsParser.parse(["--record", "x.wav", "--print-start"]).recording.printStart)
    }

    @Test("--formats asks for the list")
    func formats() throws {
        #expect(try RunOptionsParser.parse(["--formats"]).recording.listFormats)
    }

    @Test("--format overrides the extension it agrees with, or a path with an unknown one")
    func formatAndExtension() throws {
        #expect(try FileChoice.format(for: "x.wav", named: SoundFormat.named("wavex"), depth: nil, rate: nil).name == "wavex")
        #expect(try FileChoice.format(for: "x.wav", named: SoundFormat.named("rf64"), depth: nil, rate: nil).name == "rf64")
        #expect(try FileChoice.format(for: "x.dat", named: SoundFormat.named("flac"), depth: nil, rate: nil).name == "flac")
        #expect(try FileChoice.format(for: "take", named: SoundFormat.named("caf"), depth: nil, rate: nil).name == "caf")
    }

    @Test("--format that contradicts the extension is refused")
    func formatContradictsExtension() {
        #expect(throws: FileChoiceError("\(setting: .record) x.flac: \(setting: .format) wav does not write .flac files (that is flac)")) {
            try FileChoice.format(for: "x.flac", named: SoundFormat.named("wav"), depth: nil, rate: nil)
        }
    }

    @Test("an unknown extension without --format is refused and names the extensions")
    func unknownExtension() {
        #expect(throws: FileChoiceError.self) { try FileChoice.format(for: "x.aac", named: nil, depth: nil, rate: nil) }
    }

    @Test("extensions choose formats: .wav is wav (RF64 with downgrade), .rf64 is rf64, .opus is opus")
    func byExtension() throws {
        #expect(try FileChoice.format(for: "a/b.WAV", named: nil, depth: nil, rate: nil).name == "wav")
        #expect(try FileChoice.format(for: "b.rf64", named: nil, depth: nil, rate: nil).name == "rf64")
        #expect(try FileChoice.format(for: "b.opus", named: nil, depth: nil, rate: nil).name == "opus")
        #expect(try FileChoice.format(for: "b.aif", named: nil, depth: nil, rate: nil).name == "aiff")
    }

    @Test("depths a format cannot hold are refused", arguments: [("x.flac", SampleDepth.float), ("x.flac", .int32), ("x.ogg", .int16), ("x.opus", .int24)])
    func depthRefused(path: String, depth: SampleDepth) {
        #expect(throws: FileChoiceError.self) { try FileChoice.format(for: path, named: nil, depth: depth, rate: nil) }
    }

    @Test("Opus takes only its five rates")
    func opusRates() throws {
        #expect(throws: FileChoiceError.self) { try FileChoice.format(for: "x.opus", named: nil, depth: nil, rate: 44100) }
        #expect(try FileChoice.format(for: "x.opus", named: nil, depth: nil, rate: 16000).name == "opus")
        let opus = try #require(SoundFormat.named("opus"))
        #expect(throws: FileChoiceError("opus files are 8000, 12000, 16000, 24000, 48000 Hz only and the server runs at 44100 Hz: add \(setting: .rate) 48000")) {
            try FileChoice.checkRate(44100, format: opus, given: false)
        }
    }

    @Test("a split piece is round(seconds × rate) frames, and at least one")
    func splitFrames() throws {
        #expect(try FileChoice.splitFrames(0.3, rate: 48000) == 14400)
        #expect(try FileChoice.splitFrames(1.00001, rate: 4096) == 4096)
        #expect(throws: FileChoiceError.self) { try FileChoice.splitFrames(0.0001, rate: 4096) }
    }

    @Test("a split recording numbers on after the pieces that exist, with or without --force, and is never refused for them")
    func existingPiecesNumberedAfter() throws {
        let dir = NSTemporaryDirectory() + "jackwave-fileopts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data().write(to: URL(fileURLWithPath: dir + "/take-017.wav"))
        try Data().write(to: URL(fileURLWithPath: dir + "/take-x01.wav"))
        let o = try RunOptionsParser.parse(["--record", dir + "/take.wav", "--split", "1"])
        #expect(try o.checkOutputs()?.name == "wav")
        #expect(o.fileNaming?.firstNumbers().piece == 18)
        var forced = o
        forced.recording.force = true
        #expect(try forced.checkOutputs()?.name == "wav")
    }

    @Test("one file that exists is refused without --force")
    func existingFileRefused() throws {
        let dir = NSTemporaryDirectory() + "jackwave-fileopts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data().write(to: URL(fileURLWithPath: dir + "/take.wav"))
        let o = try RunOptionsParser.parse(["--record", dir + "/take.wav"])
        #expect(throws: UsageError("\(setting: .record) \(dir)/take.wav: file exists (use \(setting: .force) to overwrite it)")) {
            try o.checkOutputs()
        }
    }

    /// The line `checkOutputs` refuses `arguments` with, in a fresh folder, nil if it passes.
    func outputsRefusal(_ arguments: (String) -> [String]) throws -> String? {
        let dir = NSTemporaryDirectory() + "jackwave-fileopts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let o = try RunOptionsParser.parse(arguments(dir))
        var line: String?
        do throws(UsageError) {
            _ = try o.checkOutputs()
        } catch {
            line = error.message.line
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        return line
    }

    @Test("take names of a 128-byte project and scene are refused at the start, more than NAME_MAX (255) bytes")
    func takeNameTooLong() throws {
        let line = try outputsRefusal { ["--record", $0 + "/x.wav", "--transport", "--name-pattern", "%P_%S_%T.wav",
                                         "--project", String(repeating: "p", count: 128), "--scene", String(repeating: "s", count: 128)] }
        #expect(line?.hasPrefix("--record") == true, "\(String(describing: line))")
        #expect(line?.contains("at most 255 (NAME_MAX)") == true, "\(String(describing: line))")
    }

    @Test("a take name that fits as T001 but not with the widest take number and a temporary's 12 bytes is refused")
    func takeNameFitsOnlyNow() throws {
        // 115 + 1 + 115 + "_T001.wav" is 240 bytes; "T1000000000" and ".…_999….XXXXXX" make it 260.
        let line = try outputsRefusal { ["--record", $0 + "/x.wav", "--transport", "--name-pattern", "%P_%S_%T.wav",
                                         "--project", String(repeating: "p", count: 115), "--scene", String(repeating: "s", count: 115)] }
        #expect(line?.contains("NAME_MAX") == true, "\(String(describing: line))")
        #expect(try outputsRefusal { ["--record", $0 + "/x.wav", "--transport", "--name-pattern", "%P_%S_%T.wav",
                                      "--project", String(repeating: "p", count: 100), "--scene", String(repeating: "s", count: 100)] } == nil)
    }

    @Test("a picture beside each file whose name is too long is refused, naming --plot")
    func pictureNameTooLong() throws {
        let line = try outputsRefusal { ["--record", $0 + "/x.wav", "--split", "1", "--plot", $0 + "/" + String(repeating: "q", count: 240) + ".png"] }
        #expect(line?.hasPrefix("--plot") == true, "\(String(describing: line))")
    }

    @Test("a wall-clock name too long once its fields are at their widest is refused at the start")
    func wallClockNameTooLong() throws {
        let line = try outputsRefusal { ["--record", $0 + "/x.wav", "--split-every", "1h", "--name-pattern", String(repeating: "w", count: 230) + "-%Y%m%d-%H%M%S-%Z.wav"] }
        #expect(line?.contains("NAME_MAX") == true, "\(String(describing: line))")
    }

    @Test("a path longer than PATH_MAX (4096) with its widest name is refused")
    func pathTooLong() throws {
        let dir = NSTemporaryDirectory() + "jackwave-fileopts-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Folders 4050 bytes deep whatever the temporary folder's own length (a path the
        // system still takes); the file's name then carries it past PATH_MAX.
        var deep = dir
        while deep.utf8.count + 201 < 4000 { deep += "/" + String(repeating: "d", count: 200) }
        deep += "/" + String(repeating: "e", count: 4050 - deep.utf8.count - 1)
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        let o = try RunOptionsParser.parse(["--record", deep + "/" + String(repeating: "t", count: 100) + ".wav", "--split", "1"])
        do throws(UsageError) {
            _ = try o.checkOutputs()
            Issue.record("accepted")
        } catch {
            #expect(error.message.line.contains("PATH_MAX"), "\(error.message.line)")
        }
    }
}
