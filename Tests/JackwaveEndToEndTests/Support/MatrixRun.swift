import Foundation
import JackwaveTestSupport
import Testing

/// One run of the combination matrix: which features it turns on, as a level per factor.
///
/// The factors are declared once, here (`factors`, and a property each): a new option adds
/// its factor, its arguments in `arguments`, what the run does for it in
/// `CombinationMatrixEndToEndTests`, and what it checks, and the pairwise generator gives it
/// its pairs with every other factor.
struct MatrixRun: CustomTestStringConvertible, Sendable {
    /// What arms the recorder.
    enum Arming: Int, Sendable { case none = 0, trigger, transport }
    /// The archive's format: WAV, or a lossy codec through libsndfile (`--quality 0.5`).
    enum Format: Int, Sendable {
        case wav = 0, mp3, opus
        var ext: String { ["wav", "mp3", "opus"][rawValue] }
    }

    static let factors: [Pairwise.Factor] = [
        .init(name: "server", levels: 2),     // jackd, PipeWire
        .init(name: "tone", levels: 2),       // the test pattern's source, or jackwave's own tone
        .init(name: "arming", levels: 3),     // none, --trigger, --transport
        .init(name: "pre-roll", levels: 2),
        .init(name: "rate", levels: 2),       // --rate 44100
        .init(name: "split", levels: 2),      // --split 1
        .init(name: "reconnect", levels: 2),  // --reconnect, with a server restart in the run
        .init(name: "osc", levels: 2),        // --osc, with a marker and a split sent
        .init(name: "loudness", levels: 2),
        .init(name: "levels", levels: 2),
        .init(name: "plot", levels: 2),
        .init(name: "events", levels: 2),
        .init(name: "on-close", levels: 2),
        .init(name: "split-every", levels: 2),  // --split-every 10s under the test clock, 0.4 s before a boundary
        .init(name: "stream", levels: 2),       // --stream to a private Icecast (Opus)
        .init(name: "silence", levels: 2),      // --silence -60dB:0.3s: a feed that is never silent raises nothing
        .init(name: "format", levels: 3),       // wav, mp3, opus
        .init(name: "latency", levels: 2),      // the pattern's source declares a capture latency
        .init(name: "midi", levels: 2),         // --midi 1: a .mid beside every file (no MIDI source: empty tracks)
    ]

    /// What cannot be combined in a run: a pre-roll needs arming; another rate is checked on
    /// the tone (a resampled pattern is no longer the pattern), as is a lossy archive (at the
    /// server's rate: Opus takes 48 kHz); `--split-every` and `--split` exclude each other; a
    /// declared latency is the pattern source's (jackwave's own tone declares none).
    static func allows(_ run: [Int?]) -> Bool {
        if run[3] == 1 && run[2] == 0 { return false }
        if run[4] == 1 && run[1] == 0 { return false }
        if run[13] == 1 && run[5] == 1 { return false }
        if let format = run[16], format != 0, run[1] == 0 || run[4] == 1 { return false }
        if run[17] == 1 && run[1] == 1 { return false }
        return true
    }

    /// The covering set, in the generator's order.
    static let all: [MatrixRun] = Pairwise(factors: factors, allows: allows).runs().enumerated().map { MatrixRun(index: $0.offset, levels: $0.element) }

    let index: Int
    let levels: [Int]

    var server: ServerKind { levels[0] == 0 ? .jackd : .pipewire }
    var tone: Bool { levels[1] == 1 }
    var arming: Arming { Arming(rawValue: levels[2])! }
    var preRoll: Bool { levels[3] == 1 }
    var rate: Bool { levels[4] == 1 }
    var split: Bool { levels[5] == 1 }
    var reconnect: Bool { levels[6] == 1 }
    var osc: Bool { levels[7] == 1 }
    var loudness: Bool { levels[8] == 1 }
    var levelStream: Bool { levels[9] == 1 }
    var plot: Bool { levels[10] == 1 }
    var events: Bool { levels[11] == 1 }
    var onClose: Bool { levels[12] == 1 }
    var splitEvery: Bool { levels[13] == 1 }
    var stream: Bool { levels[14] == 1 }
    var silence: Bool { levels[15] == 1 }
    var format: Format { Format(rawValue: levels[16])! }
    var lossy: Bool { format != .wav }
    var declaredLatency: Int? { levels[17] == 1 ? Self.latencyFrames : nil }
    var midi: Bool { levels[18] == 1 }

    /// The capture latency the pattern's source declares, when it does: 10 ms.
    static let latencyFrames = 480

    /// Whether the files are numbered (cut, or may be; on the wall clock they are named by
    /// time instead), and taken per take.
    var numbered: Bool { split || reconnect || osc || splitEvery }
    var armed: Bool { arming != .none }
    /// The rate of the files.
    var fileRate: Int { rate ? 44100 : 48000 }

    var testDescription: String {
        let on = zip(Self.factors, levels).compactMap { factor, level -> String? in
            switch factor.name {
            case "server": return level == 0 ? "jackd" : "PipeWire"
            case "arming": return level == 0 ? nil : level == 1 ? "trigger" : "transport"
            case "format": return level == 0 ? nil : Format(rawValue: level)!.ext
            default: return level == 1 ? factor.name : nil
            }
        }
        return "run \(index + 1): " + on.joined(separator: " ")
    }

    /// The test clock's frame 0 for `--split-every`: 14:00:00 UTC comes 0.4 s into the run.
    static let clockStart = "1741960799.6"

    /// jackwave's environment for this run: the test clock, the stream's password.
    func environment(streamPassword: String?) -> [String: String] {
        var e: [String: String] = [:]
        if splitEvery { e["JACKWAVE_TEST_CLOCK"] = Self.clockStart }
        if let streamPassword { e["JACKWAVE_STREAM_PASSWORD"] = streamPassword }
        return e
    }

    /// jackwave's arguments for this run, writing into `dir`, remote control on `port`, the
    /// stream to Icecast on `icecastPort`.
    func arguments(dir: String, port: Int, icecastPort: Int?) -> [String] {
        var a = ["--record", dir + "/m." + format.ext, "--no-meter"]
        a += tone ? ["--tone", "997", "--outputs", "1", "--port", "jackwave:out_1", "-c", "1"] : ["-p", "src:out_*"]
        switch arming {
        case .none: break
        case .trigger: a += ["--trigger", "-40dB"]
        case .transport: a += ["--transport"]
        }
        if preRoll { a += ["--pre-roll", "0.2"] }
        if rate { a += ["--rate", "44100"] }
        if split { a += ["--split", "1"] }
        if reconnect { a += ["--reconnect"] }
        if osc { a += ["--osc", "\(port)"] }
        if loudness { a += ["--loudness"] }
        if levelStream { a += ["--levels", dir + "/m.csv"] }
        if plot { a += ["--plot", dir + "/m.png"] }
        if events { a += ["--events", dir + "/m.jsonl"] }
        if onClose { a += ["--on-close", "echo >> '\(dir)/closed.txt'"] }
        if splitEvery { a += ["--split-every", "10s", "--utc"] }
        if stream, let icecastPort { a += ["--stream", "icecast://source@127.0.0.1:\(icecastPort)/m.opus"] }
        if silence { a += ["--silence", "-60dB:0.3s"] }
        if lossy { a += ["--quality", "0.5"] }
        if midi { a += ["--midi", "1"] }
        return a
    }
}
