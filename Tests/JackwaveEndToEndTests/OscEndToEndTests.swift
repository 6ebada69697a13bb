import Foundation
import JackwaveTestSupport
import JackwaveHost
import JackwaveSoundFiles
import Synchronization
import Testing

/// `--osc PORT`: remote control, driven with `oscsend` (liblo-tools) as a user would.
@Suite("Remote control over OSC", .serialized)
struct OscEndToEndTests {
    let server: any TestServer
    let dir = temporaryDirectory()

    init() throws { server = try ServerKind.jackd.start() }

    /// `oscsend localhost PORT PATH [TYPES VALUES…]`.
    static func send(_ port: Int, _ path: String, _ typesAndValues: String...) throws {
        let out = try Run.tool("/usr/bin/oscsend", ["localhost", "\(port)", path] + typesAndValues, server: nil, timeout: 10)
        guard out.status == 0 else { throw TestFailure("oscsend \(path) failed: \(out.stderr)") }
    }

    /// Starts jackwave with `--osc PORT` and waits until frames are on disk in `firstFile`
    /// (more than a second's: a split comes at least a second after the file's start).
    func start(_ arguments: [String], port: Int, firstFile: String) throws -> Run.Running {
        let run = try Run.start(Run.jackwave, arguments + ["--osc", "\(port)"], server: server.name)
        guard run.waitForRecordedFrames(firstFile, moreThan: 48000) else {
            run.signal(SIGKILL)
            throw TestFailure("no frames in \(firstFile): \(run.stderrSoFar)")
        }
        return run
    }

    @Test("/jackwave/split cuts the take sample-exactly: the next file begins with the very next frame")
    func splitIsSampleExact() throws {
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let port = try FreePort.udp()
        let path = dir + "/cut.wav"
        let pieces = [dir + "/cut-001.wav", dir + "/cut-002.wav"]
        let run = try start(["--record", path, "-p", "src:out_*"], port: port, firstFile: pieces[0])
        try Self.send(port, "/jackwave/split")
        #expect(run.waitForStderr("OSC: split at"), "\(run.stderrSoFar)")
        #expect(run.waitForRecordedFrames(pieces[1], moreThan: 24000), "\(run.stderrSoFar)")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        let first = try Recording(pieces[0]), second = try Recording(pieces[1])
        // The frame the split was asked at is where the first file ends; or, when the writer
        // had already written it (a main thread late on a loaded machine), the frame it says
        // it cut at instead.
        let asked = out.stderr.firstMatch(of: #/split at [0-9.]+ s \(frame (\d+)\)/#).flatMap { Int($0.1) }
        let instead = out.stderr.firstMatch(of: #/split: frame \d+ was already written .* it cut at frame (\d+) instead/#).flatMap { Int($0.1) }
        #expect((instead ?? asked) == first.frames, "\(out.stderr)")
        #expect(TestPattern.firstMismatch(in: first, from: 0) == nil)
        #expect(TestPattern.firstMismatch(in: second, from: 0) == nil)
        // Continuous across the cut: the second file's first frame follows the first's last.
        let last = TestPattern.phase(of: first[first.frames - 1, 0])
        #expect(TestPattern.phase(of: second[0, 0]) == (last + 1) % 16384)
        #expect(out.stderr.contains("(2 files)"), "\(out.stderr)")
    }

    @Test("/jackwave/stop stops the take as Ctrl-C does: a finalized file and exit 0")
    func stopFinalizes() throws {
        let port = try FreePort.udp()
        let path = dir + "/stopped.wav"
        let run = try start(["--record", path, "-c", "1", "--manual"], port: port, firstFile: dir + "/stopped-001.wav")
        try Self.send(port, "/jackwave/stop")
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        let rec = try Recording(dir + "/stopped-001.wav")
        #expect(rec.frames > 24000)
        #expect(out.stderr.contains("\(rec.frames) frames"), "\(out.stderr)")
    }

    @Test("/jackwave/marker drops a labelled marker: a cue point in the file, a line and a marker event")
    func markerLands() throws {
        let port = try FreePort.udp()
        let path = dir + "/marked.wav", first = dir + "/marked-001.wav", events = dir + "/marked.jsonl"
        let run = try start(["--record", path, "-c", "1", "--manual", "--events", events], port: port, firstFile: first)
        try Self.send(port, "/jackwave/marker", "s", "verse")
        #expect(run.waitForStderr("marker 1 (verse) at"), "\(run.stderrSoFar)")
        // The stop only once the file holds frames past the marker: a stop in the same
        // cycle would end the file at the marker's own frame (then "in no file").
        #expect(run.waitForRecordedFrames(first, moreThan: Recording.framesSoFar(first) + 4800))
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        let file = try SoundFile(readingFrom: first)
        #expect(file.cues.map(\.number) == [1], "\(out.stderr)")
        #expect(file.cues.first.map { $0.frame > 24000 && $0.frame < file.frames } == true)
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains(#""event":"marker""#) && $0.contains(#""label":"verse""#) && $0.contains(#""number":1"#) },
                "\(lines)")
    }

    @Test("/jackwave/status replies to the sender, at a reply path, with state, file, frames, xruns, dropped frames, take, dead air, clips and MIDI")
    func statusReplies() throws {
        let port = try FreePort.udp()
        let path = dir + "/status.wav"
        let file = dir + "/status-001.wav"
        let run = try start(["--record", path, "-c", "1", "--manual"], port: port, firstFile: file)
        defer { run.signal(SIGINT); _ = run.finish(timeout: 30) }
        let peer = try OscPeer()
        peer.send("/jackwave/status", to: port)
        let reply = peer.waitForMessages(1, timeout: 10).first
        #expect(reply?.path == "/jackwave/reply/status")
        #expect(reply?.sender.port == port)
        let arguments = reply?.arguments ?? []
        #expect(arguments.count == 13)
        guard arguments.count == 13 else { return }
        #expect(arguments[0] == .string("recording"))
        #expect(arguments[1] == .string(file))
        if case let .int(frames) = arguments[2] { #expect(frames > 24000) } else { Issue.record("frames: \(arguments[2])") }
        if case let .int(xruns) = arguments[3] { #expect(xruns >= 0) } else { Issue.record("xruns: \(arguments[3])") }
        #expect(arguments[4] == .int(0))
        #expect(arguments[5] == .int(0), "not armed: no take")
        #expect(arguments[6] == .float(0) && arguments[7] == .int(0), "no alarm watched: no dead air, no clips")
        #expect(arguments[8] == .int(0) && arguments[9] == .int(0) && arguments[10] == .string(""), "no MIDI: no events, no MMC")
        #expect(arguments[11] == .string("") && arguments[12] == .string(""), "no --ltc: no timecode, no state")
    }

    @Test("after /jackwave/tone/frequency the status line shows it, and the arrow keys go on from it",
          .enabled(if: TmuxPane.available))
    func keysFollowOsc() throws {
        let port = try FreePort.udp()
        let pane = try TmuxPane(jackwave: ["--tone", "440", "--osc", "\(port)"], server: server)
        // The status line (`440.00 Hz  -20.0 dBFS`) is up once keys are read.
        #expect(try pane.waitForScreen { $0.contains("440.00 Hz  -20.0 dBFS") }.contains("440.00 Hz  -20.0 dBFS"))
        try Self.send(port, "/jackwave/tone/frequency", "f", "1000")
        let changed = try pane.waitForScreen { $0.contains("1000.00 Hz  -20.0 dBFS") }
        #expect(changed.contains("1000.00 Hz  -20.0 dBFS"), "\(changed)")
        // A semitone up from 1000 Hz, not from the 440 Hz the keys last set.
        try pane.send("Up")
        let stepped = try pane.waitForScreen { $0.contains("1059.46 Hz  -20.0 dBFS") }
        #expect(stepped.contains("1059.46 Hz  -20.0 dBFS"), "\(stepped)")
        try pane.send("q")
        let end = try pane.waitForScreen { $0.contains("played") }
        #expect(end.contains("played 440 Hz (last 1059.46 Hz): "), "\(end)")
    }

    @Test("/jackwave/tone/frequency changes the tone that plays (recorded from its own output)")
    func toneFrequency() throws {
        let port = try FreePort.udp()
        let path = dir + "/tone.wav"
        let file = dir + "/tone-001.wav"
        let run = try start(["--record", path, "--tone", "440", "-c", "1", "-p", "jackwave:out_1"],
                            port: port, firstFile: file)
        try Self.send(port, "/jackwave/tone/frequency", "f", "1000")
        #expect(run.waitForStderr("OSC: tone 1000.00 Hz"), "\(run.stderrSoFar)")
        let now = Recording.framesSoFar(file)
        #expect(run.waitForRecordedFrames(file, moreThan: now + 72000), "\(run.stderrSoFar)")
        run.signal(SIGINT)
        #expect(run.finish(timeout: 30).status == 0)
        let rec = try Recording(file)
        // Rising zero crossings over the second before the fade-out: the frequency in Hz.
        let end = rec.frames - 24000
        var crossings = 0
        for f in (end - 48000 + 1)..<end where rec[f - 1, 0] < 0 && rec[f, 0] >= 0 { crossings += 1 }
        #expect(abs(crossings - 1000) <= 1, "\(crossings) rising zero crossings in 1 s")
    }

    @Test("a malformed or unknown message is one line on stderr and changes nothing")
    func malformedChangesNothing() throws {
        let port = try FreePort.udp()
        let path = dir + "/bad.wav"
        let run = try start(["--record", path, "-c", "1", "--manual"], port: port, firstFile: dir + "/bad-001.wav")
        try Self.send(port, "/jackwave/bogus", "i", "3")
        try Self.send(port, "/jackwave/split", "i", "1")
        try Self.send(port, "/jackwave/tone/frequency", "s", "loud")
        try Self.send(port, "/jackwave/status")   // the fence: handled after the three above
        #expect(waitUntil(timeout: 10) { run.stderrSoFar.components(separatedBy: "OSC: ").count - 1 >= 3 || !run.isRunning })
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stderr.split(separator: "\n").filter { $0.contains("OSC: ") }
        #expect(lines.count == 3, "\(out.stderr)")
        #expect(lines.first?.contains("unknown message /jackwave/bogus") == true, "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/bad-002.wav"))
    }

    @Test("--osc on a port already in use exits 1 with one line and creates no file")
    func portInUse() throws {
        let holder = try OscPeer()
        let caseDir = dir + "/busy"
        try FileManager.default.createDirectory(atPath: caseDir, withIntermediateDirectories: true)
        let run = try Run.jackwave(["--record", caseDir + "/x.wav", "--osc", "\(holder.port)"], server: server.name)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: caseDir).isEmpty)
    }
}
