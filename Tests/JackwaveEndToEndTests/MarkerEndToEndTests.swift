import Foundation
import JackwaveSoundFiles
import Testing

/// Markers (SIGUSR1 here, `m` on a terminal) land in the recording as WAV cue points.
@Suite("Markers written as cue points", .serialized)
struct MarkerEndToEndTests {
    let server: JackServer
    let dir = temporaryDirectory()

    init() throws { server = try JackServer() }

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
}
