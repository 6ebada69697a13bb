import Foundation
import JackwaveTestSupport
import Testing

/// jackwave in a New Session Manager session, against the real `nsmd` 1.6.1 and its
/// `jackpatch`, driven through nsmd's server API as a session manager's window drives it.
@Suite("In a session (NSM), end to end", .serialized)
struct SessionManagerEndToEndTests {
    /// The first frame of `rec` where any channel carries signal (an input was connected),
    /// or nil if none ever does.
    func patternStart(_ rec: Recording) -> Int? {
        (0..<rec.frames).first { f in (0..<rec.channels).contains { rec[f, $0] != 0 } }
    }

    /// Each channel of `rec` is silence until its input was connected (one at a time), then
    /// the pattern, unbroken, to the end. A channel's pattern is channel 0's at another phase,
    /// so each is checked alone as a one-channel recording.
    func expectPatternAfterConnection(_ rec: Recording, _ name: String, server: any TestServer, stderr: String,
                                      sourceLocation: SourceLocation = #_sourceLocation) {
        for c in 0..<rec.channels {
            let samples = (0..<rec.frames).map { rec[$0, c] }
            guard let start = samples.firstIndex(where: { $0 != 0 }) else {
                Issue.record("\(name) channel \(c + 1): silence only (\(rec.frames) frames): \(stderr)", sourceLocation: sourceLocation)
                continue
            }
            server.expectPattern(Recording(channels: 1, samples: Array(samples[start...])), stderr: stderr, source: nil,
                                 sourceLocation: sourceLocation)
        }
    }

    @Test("a session records from open to close, saves with the file up to date, and numbers on when reopened, with its connections restored",
          arguments: ServerKind.allCases)
    func recordSaveCloseReopen(kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let nsm = try NSMServer(server: server)
        defer { try? nsm.request("/nsm/server/quit") }
        try nsm.request("/nsm/server/new", ["take"])
        try nsm.request("/nsm/server/add", ["jackpatch"])
        try nsm.request("/nsm/server/add", ["jackwave"])
        let folder = try #require(nsm.clientFolder(session: "take"), "no client folder: \(nsm.process.stderrSoFar)")
        let clientID = String(folder.split(separator: "/").last ?? "")
        // The first open wrote the defaults, and records into take-001.wav as the JACK client
        // the session named.
        let first = folder + "/take-001.wav"
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(first) > 0 }, "\(nsm.process.stderrSoFar)")
        let settings = try String(contentsOfFile: folder + "/jackwave.args", encoding: .utf8)
        #expect(settings.contains("--record\ntake.wav\n"), "\(settings)")
        for channel in 1...2 {
            let out = try Run.tool("/usr/bin/jack_connect", ["src:out_\(channel)", "\(clientID):in_\(channel)"], server: server.name)
            #expect(out.status == 0, "\(clientID):in_\(channel): \(out.stderr)")
        }
        // A save in the middle: the reply comes once the file is up to date, and what a
        // reader finds then is the pattern and the start of the final file.
        let before = Recording.framesSoFar(first)
        #expect(waitUntil(timeout: 30) { Recording.framesSoFar(first) > before + 48000 }, "\(nsm.process.stderrSoFar)")
        try nsm.request("/nsm/server/save")
        let atSave = try Recording(first)
        #expect(atSave.frames > before + 48000)
        // Close: jackwave gets SIGTERM, finalizes the file and ends.
        try nsm.request("/nsm/server/close")
        #expect(waitUntil(timeout: 30) { !nsm.process.stderrSoFar.isEmpty && (try? Run.tool("/usr/bin/jack_lsp", [], server: server.name))?.stdout.contains(clientID) == false })
        let whole = try Recording(first)
        #expect(whole.frames >= atSave.frames)
        #expect(Array(whole.samples.prefix(atSave.samples.count)) == atSave.samples, "the file at the save is the start of the final file")
        expectPatternAfterConnection(whole, "take-001.wav", server: server, stderr: nsm.process.stderrSoFar)
        // Reopen: the next file, and jackpatch restores the connections.
        try nsm.request("/nsm/server/open", ["take"])
        let second = folder + "/take-002.wav"
        #expect(waitUntil(timeout: 30) {
            ((try? Recording(second)).flatMap(patternStart)).map { _ in Recording.framesSoFar(second) > 48000 } ?? false
        }, "\(nsm.process.stderrSoFar)")
        try nsm.request("/nsm/server/close")
        #expect(waitUntil(timeout: 30) { (try? Run.tool("/usr/bin/jack_lsp", [], server: server.name))?.stdout.contains(clientID) == false })
        let reopened = try Recording(second)
        expectPatternAfterConnection(reopened, "take-002.wav", server: server, stderr: nsm.process.stderrSoFar)
        #expect(try String(contentsOfFile: folder + "/jackwave.args", encoding: .utf8) == settings, "a save never rewrites the settings")
    }

    @Test("a setting that points outside the session's folder is refused with /error and a line, and nothing is recorded")
    func settingOutsideFolderRefused() throws {
        let server = try ServerKind.jackd.start()
        let nsm = try NSMServer(server: server)
        defer { try? nsm.request("/nsm/server/quit") }
        try nsm.request("/nsm/server/new", ["outside"])
        try nsm.request("/nsm/server/add", ["jackwave"])
        let folder = try #require(nsm.clientFolder(session: "outside"), "no client folder: \(nsm.process.stderrSoFar)")
        #expect(waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: folder + "/take-001.wav") })
        try nsm.request("/nsm/server/close")
        let escape = temporaryDirectory()
        try "--record\n\(escape)/take.wav\n--manual\n".write(toFile: folder + "/jackwave.args", atomically: false, encoding: .utf8)
        try nsm.request("/nsm/server/open", ["outside"])
        #expect(waitUntil(timeout: 30) { nsm.process.stderrSoFar.contains("outside the session's folder") }, "\(nsm.process.stderrSoFar)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: escape)) == [])
        #expect(!FileManager.default.fileExists(atPath: folder + "/take-002.wav"))
    }
}
