@testable import JackwaveCLI
import JackwaveHost
import JackwaveRunSupport
import Testing

/// The options that leave jackwave armed: their values, and the combinations refused.
@Suite("Take options")
struct TakeOptionsTests {
    static let refusals: [Refusal] = [
        Refusal("a level", ["--record", "x.wav", "--trigger", "3dB"], "--trigger: 3dB is above 0 dBFS"),
        Refusal("a level", ["--record", "x.wav", "--trigger", "loud"], "--trigger: 'loud' is not a level (use 0.5 or -6dB)"),
        Refusal("an option that needs another", ["--trigger", "-30dB"], "--trigger needs --record"),
        Refusal("an option that needs another", ["--record", "x.wav", "--pre-roll", "2"], "--pre-roll needs --trigger or --transport"),
        Refusal("an option that needs another", ["--record", "x.wav", "--takes", "2"], "--takes needs --trigger or --transport"),
        Refusal("an option that needs another", ["--record", "x.wav", "--stop-level", "0.1"], "--stop-level needs --trigger"),
        Refusal("options that exclude each other", ["--record", "x.wav", "--trigger", "0.1", "--transport"],
                "--trigger and --transport exclude each other"),
        Refusal("a stop level above the trigger", ["--record", "x.wav", "--trigger", "-30dB", "--stop-level", "-20dB"],
                "--stop-level must not be above --trigger"),
        Refusal("a pre-roll beyond the parser's bound", ["--record", "x.wav", "--trigger", "0.1", "--pre-roll", "3601"],
                "--pre-roll: seconds must be between 0 and 3600, not 3601"),
    ]

    @Test("a bad take option or combination is refused in one line", arguments: refusals)
    func refused(_ refusal: Refusal) {
        #expect(refusal.actual == refusal.message)
    }

    @Test("--trigger in dBFS, a pre-roll and --takes set what they declare")
    func values() throws {
        let o = try RunOptionsParser.parse(["--record", "t.wav", "--trigger", "-40dB", "--pre-roll", "2",
                                            "--stop-after", "1.5", "--takes", "3"])
        #expect(abs(try #require(o.takes.triggerLevel) - 0.01) < 1e-6)
        #expect(o.takes.preRollSeconds == 2 && o.takes.stopAfterSeconds == 1.5 && o.takes.maximumTakes == 3)
        #expect(o.armed)
    }

    @Test("the stop level defaults to 6 dB under the trigger, --stop-after to 2 s")
    func defaults() throws {
        let o = try RunOptionsParser.parse(["--record", "t.wav", "--trigger", "0.2"])
        let take = try #require(try o.takeSettings(channels: 2, serverRate: 48000))
        #expect(take.stopLevel == 0.1)
        #expect(take.stopAfterFrames == 96000)
        #expect(take.preRollFrames == 0)
    }

    @Test("a pre-roll larger than half the machine's memory is refused, naming the most it could be")
    func preRollBoundedByMemory() throws {
        let o = try RunOptionsParser.parse(["--record", "t.wav", "--trigger", "0.2", "--pre-roll", "3600", "-c", "1024"])
        #expect(throws: UsageError.self) { try o.takeSettings(channels: 1024, serverRate: 768_000) }
    }

    @Test("the status line shows the take state")
    func statusLine() {
        var s = StatusSnapshot(elapsedSeconds: 1, recordPath: "/tmp/t-003.wav", fileBytes: nil, ringFill: nil, xruns: 0,
                               droppedFrames: 0, toneFrequency: nil, toneAmplitude: nil, tonePaused: false)
        s.takeStatus = "take 3 stopping in 1.2 s"
        #expect(MeterRenderer.statusText(s).contains("rec t-003.wav  take 3 stopping in 1.2 s"))
    }
}

/// The marker key among the terminal's bytes.
@Suite("Marker key")
struct MarkerKeyTests {
    @Test("m and M each drop a marker; other keys and escape sequences do not")
    func markerKeys() {
        #expect(MarkerKey.count(in: Array("mxM q".utf8)) == 2)
        #expect(MarkerKey.count(in: [0x1B, UInt8(ascii: "["), UInt8(ascii: "A")]) == 0)
    }
}
