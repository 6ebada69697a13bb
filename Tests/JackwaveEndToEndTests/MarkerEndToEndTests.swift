import Foundation
import JackwaveTestSupport
import JackwaveSoundFiles
import Testing

/// Markers (SIGUSR1, and `m` on a terminal) land in the recording as WAV cue points.
@Suite("Markers written as cue points", .serialized)
struct MarkerEndToEndTests {
    let server: any TestServer
    let dir = temporaryDirectory()

    init() throws { server = try ServerKind.jackd.start() }

    @Test("markers dropped while recording are read back from the file's cue chunk, numbered, in order, within the file")
    func markersReadBack() throws {
        let path = dir + "/marked.wav"
        let run = try Run.start(Run.jackwave, ["--record", path, "-c", "1", "--manual"], server: server.name)
        #expect(run.waitForRecordedFrames(path, moreThan: 4800), "\(run.stderrSoFar)")
        run.signal(SIGUSR1)
        #expect(run.waitForStderr("marker 1 at"))
        #expect(run.waitForRecordedFrames(path, moreThan: Recording.framesSoFar(path) + 4800), "\(run.stderrSoFar)")
        run.signal(SIGUSR1)
        #expect(run.waitForStderr("marker 2 at"))
        run.signal(SIGINT)
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        let file = try SoundFile(readingFrom: path)
        let cues = file.cues
        #expect(cues.map(\.number) == [1, 2], "\(out.stderr)")
        #expect(cues.count == 2 && cues[0].frame >= 4800 && cues[1].frame > cues[0].frame && cues[1].frame < file.frames)
        // The summary names each marker with its frame in the file.
        for cue in cues {
            #expect(out.stderr.contains("marker \(cue.number) at ") && out.stderr.contains("marked.wav frame \(cue.frame)"),
                    "\(out.stderr)")
        }
    }

    @Test("m on the terminal drops a marker while the meter runs, and it is in the file",
          .enabled(if: TmuxPane.available))
    func markerKey() throws {
        let path = dir + "/keyed.wav"
        let pane = try TmuxPane(jackwave: ["--record", path, "-c", "1", "--manual"], server: server)
        #expect(try pane.waitForScreen { $0.contains("rec keyed.wav") }.contains("rec keyed.wav"))
        try pane.send("m")
        let marked = try pane.waitForScreen { $0.contains("marker 1 at") }
        #expect(marked.contains("marker 1 at"), "\(marked)")
        try pane.send("C-c")
        let end = try pane.waitForScreen { $0.contains("recorded ") }
        #expect(end.contains("recorded "), "\(end)")
        let cues = try SoundFile(readingFrom: path).cues
        #expect(cues.map(\.number) == [1], "\(end)")
    }
}

/// Markers in an armed recording land in the take that holds their frame.
@Suite("Markers in takes", .serialized)
struct TakeMarkerEndToEndTests {
    let server: any TestServer
    let dir = temporaryDirectory()

    init() throws { server = try ServerKind.jackd.start() }

    @Test("a marker dropped during a take is a cue point of that take's file, at its frame within the take")
    func markerInTake() throws {
        // A 3-second burst and 3 s of --stop-after: the marker, dropped once the take has
        // half a second on disk, has 5 s to land in it even on a loaded machine.
        let source = try server.startArmedSource(["--bursts", "\(3 * 48000)"])
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/m.wav"
        let run = try Run.start(Run.jackwave, ["--record", path, "--trigger", "-30dB", "--stop-after", "3", "--takes", "1",
                                               "-p", "src:out_1", "-c", "1", "--levels", "-"], server: server.name)
        #expect(run.waitForLevelFrame(atLeast: 4800), "\(run.stderrSoFar)")
        source.signal(SIGUSR1)
        #expect(run.waitForRecordedFrames(dir + "/m-001.wav", moreThan: 24000), "\(run.stderrSoFar)")
        run.signal(SIGUSR1)
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        let take = try SoundFile(readingFrom: dir + "/m-001.wav")
        let cues = take.cues
        #expect(cues.count == 1 && cues.first?.number == 1, "\(out.stderr)")
        // The marker came after 24000 frames of the take were on disk, and before its end.
        #expect((cues.first?.frame ?? 0) >= 24000 && (cues.first?.frame ?? .max) < take.frames, "\(out.stderr)")
        #expect(out.stderr.contains("m-001.wav frame \(cues.first?.frame ?? -1)"))
    }
}
