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
