import Foundation
@testable import JackwaveCLI
import JackwaveHost
import JackwaveRunSupport
import JackwaveSoundFiles
import Testing

/// `--ltc` and the production fields: read into `RunOptions`' plain fields, or refused with
/// one line (exit code 2).
@Suite("Timecode and production options")
struct TimecodeOptionsTests {
    @Test("--ltc and the production fields are read into plain values")
    func values() throws {
        let o = try RunOptionsParser.parse(["--record", "x.wav", "--ltc", "system:capture_8", "--project", "Feature", "--scene", "12A",
                                            "--take", "3", "--tape", "R07", "--note", "wind & rain", "--name-pattern", "%S_%T.wav"])
        #expect(o.timecode.ltcPort == "system:capture_8")
        #expect(o.timecode.production == ProductionInfo(project: "Feature", scene: "12A", firstTake: 3, tape: "R07", note: "wind & rain"))
        #expect(o.fileNaming?.path(take: 0, piece: 1) == "12A_T003.wav")
    }

    @Test("the timecode and production options are refused with one line when wrong, or where they would do nothing", arguments: [
        Refusal("--ltc without a recording", ["--ltc", "a:b"], "--ltc needs --record"),
        Refusal("--ltc with --manual", ["--record", "x.wav", "--ltc", "a:b", "--manual"], "--manual and --ltc exclude each other"),
        Refusal("a take of 0", ["--record", "x.wav", "--take", "0"], "--take must be between 1 and 99999, not 0"),
        Refusal("a note with a line break", ["--record", "x.wav", "--note", "a\nb"], "--note holds a control character"),
        Refusal("a scene too long", ["--record", "x.wav", "--scene", String(repeating: "x", count: 129)], "--scene is 129 bytes; at most 128"),
        Refusal("a scene in a name without one", ["--record", "x.wav", "--name-pattern", "%S_%T.wav"], "--name-pattern %S_%T.wav: %S needs --scene"),
        Refusal("a scene with a slash in a name", ["--record", "x.wav", "--name-pattern", "%S.wav", "--scene", "1/2"],
                "--scene 1/2: it goes into the files' names (--name-pattern %S), which cannot hold it"),
        Refusal("a take's name with a folder", ["--record", "x.wav", "--name-pattern", "a/%T.wav"],
                "--name-pattern a/%T.wav: a take's name is a file name, in --record's folder: no /"),
    ])
    func refused(refusal: Refusal) {
        #expect(refusal.actual == refusal.message)
    }

    @Test("a production field with no place in a format's file is refused, unless the take's name uses it")
    func fieldsWithoutAPlace() throws {
        let dir = NSTemporaryDirectory() + "jackwave-timecodeopts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flac = try RunOptionsParser.parse(["--record", dir + "/x.flac", "--scene", "12A"])
        #expect(throws: UsageError("\(setting: .scene) would have no effect: flac files (\(dir)/x.flac) carry no bext or iXML; record to .wav or .rf64")) {
            try flac.checkOutputs()
        }
        let named = try RunOptionsParser.parse(["--record", dir + "/x.flac", "--scene", "12A", "--name-pattern", "%S_%T.flac"])
        #expect(try named.checkOutputs()?.name == "flac")
        let midi = try RunOptionsParser.parse(["--record", dir + "/x.mid", "--midi", "1", "--ltc", "a:b"])
        #expect(throws: UsageError("\(setting: .ltc) would have no effect: MIDI files (\(dir)/x.mid) carry no bext or iXML; record to .wav or .rf64")) {
            try midi.checkOutputs()
        }
    }
}
