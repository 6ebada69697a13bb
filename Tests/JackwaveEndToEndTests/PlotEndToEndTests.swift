import Foundation
import JackwaveTestSupport
import Testing

/// `--plot` after `--record`: the picture is drawn once the recording is finalized.
@Suite("Plotting a fresh recording", .serialized)
struct PlotEndToEndTests {
    let server: any TestServer
    let dir = temporaryDirectory()

    init() throws { server = try ServerKind.jackd.start() }

    @Test("--plot draws the finalized recording as a PNG of the default size")
    func plotAfterRecording() throws {
        let wav = dir + "/take.wav", png = dir + "/take.png"
        let run = try Run.jackwave(["--tone", "440", "--record", wav, "--port", "jackwave:out_1", "--channels", "1",
                                    "--duration", "1", "--plot", png, "--no-meter"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(bytes.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // IHDR: width and height, big-endian, at bytes 16…23.
        let width = bytes.dropFirst(16).prefix(4).reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1200)
    }

    @Test("--plot with an unknown extension is refused before recording")
    func plotExtensionRefused() throws {
        let wav = dir + "/refused.wav"
        let run = try Run.jackwave(["--record", wav, "-d", "1", "--plot", dir + "/x.gif"], server: server.name)
        #expect(run.status == 2)
        #expect(!FileManager.default.fileExists(atPath: wav))
    }
    @Test("--plot never replaces a file at a later piece's picture name: it draws under the next free name, and says so")
    func laterPictureNeverReplaced() throws {
        let wav = dir + "/pieces.wav", png = dir + "/pic.png"
        let planted = dir + "/pic-002.png"
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: planted))
        let run = try Run.jackwave(["--record", wav, "-c", "1", "--manual", "--split", "1", "-d", "2.5", "--plot", png, "--no-meter"],
                                   server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: planted, encoding: .utf8) == "someone else's")
        #expect(run.stderr.contains("plot: \(planted) exists, so drawn as \(dir)/pic-002_2.png"), "\(run.stderr)")
        for drawn in ["pic-001.png", "pic-002_2.png", "pic-003.png"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + drawn))
            #expect(bytes.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "\(drawn)")
        }
    }
}

/// `jackwave plot` of MIDI files, run as a user runs it (no server: plot never needs one).
@Suite("Plotting MIDI files")
struct PlotMidiEndToEndTests {
    let dir = temporaryDirectory()

    /// A MIDI file of one note, middle C from 1 s to 1.5 s, at jackwave's tick = frame timing.
    func take() throws -> String {
        var conductor = MidiFileBytes.Track(name: "take")
        conductor.tempo(10_000)
        var keys = MidiFileBytes.Track(name: "keys")
        keys.note(60, at: 48_000, length: 24_000)
        let path = dir + "/take.mid"
        try Data(MidiFileBytes(division: 480, tracks: [conductor, keys]).bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("plot take.mid draws its piano roll as a PNG of the width asked, silently, and exits 0")
    func pianoRoll() throws {
        let png = dir + "/roll.png"
        let run = try Run.jackwave(["plot", try take(), "-o", png, "--width", "800"], server: nil)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty && run.stderr.isEmpty, "\(run.stdout)\(run.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(bytes.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(bytes.dropFirst(16).prefix(4).reduce(0) { $0 << 8 | Int($1) } == 800)
    }

    @Test("plot take.wav --midi with no take.mid beside it exits 2 with one line naming it, and draws nothing")
    func missingMidi() throws {
        let wav = dir + "/lonely.wav", png = dir + "/lonely.png"
        try Data(TestFiles.wav(channels: 1, frames: 4800, holding: 9600)).write(to: URL(fileURLWithPath: wav))
        let run = try Run.jackwave(["plot", wav, "--midi", "-o", png], server: nil)
        #expect(run.status == 2)
        #expect(run.stderr == "jackwave: error: \(dir)/lonely.mid: no such file (--midi draws the MIDI file beside the recording)\n",
                "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: png))
    }
}
