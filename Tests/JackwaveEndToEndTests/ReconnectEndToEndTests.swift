import Foundation
import JackwaveTestSupport
import Testing

/// `--reconnect` against a jackd that is stopped and started again under the same name.
@Suite("--reconnect survives server restarts", .serialized)
struct ReconnectEndToEndTests {
    let dir = temporaryDirectory()

    @Test("two server restarts in one run leave three exact files, a truthful event stream, and exit 0 on Ctrl-C")
    func twoRestarts() throws {
        let first = try ServerKind.jackd.start()
        let name = first.name
        let source = try first.startTestSource(channels: 2)
        let path = dir + "/survivor.wav"
        let events = dir + "/survivor.jsonl"
        let run = try Run.start(Run.jackwave, ["--record", path, "-p", "src:out_*", "--reconnect", "--events", events],
                                server: name)
        let pieces = (1...3).map { dir + "/survivor-00\($0).wav" }
        let take = ReconnectingTake(run: run, source: source, pieces: pieces)
        defer { take.cleanUp() }
        // First a clean stop (SIGTERM: jackd tells its clients it is closing), then a crash
        // (SIGKILL: the server vanishes without a word).
        try take.restartTwice(stop: { restart in
            if restart == 1 { first.stop() } else { take.servers.first?.signal(SIGKILL); _ = take.servers.first?.finish(timeout: 10) }
        }, restart: { try JackServer.startAgain(named: name) }, startSource: { try first.startTestSource(channels: 2) })
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("(3 files)"), "\(out.stderr)")
        #expect(out.stderr.contains("2 server gaps ("), "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/survivor-004.wav"))

        // Each file is the source's pattern from its first frame to its last: exactly what
        // arrived, without a missing, repeated or made-up frame.
        let recordings = try pieces.map { try Recording($0) }
        for (piece, rec) in zip(pieces, recordings) {
            #expect(rec.frames > 24000, "\(piece)")
            let mismatch = TestPattern.firstMismatch(in: rec, from: 0)
            #expect(mismatch == nil, "\(piece): first mismatch at \(String(describing: mismatch)) of \(rec.frames): \(out.stderr)")
        }

        // The events tell the same story, frame for frame.
        let lines = try EventStream.read(events)
        let kinds = EventStream.course(lines)
        // Each connection's start tells its two inputs' latency (the test source declares none).
        #expect(kinds == ["started", "latency", "latency", "file_opened", "file_closed", "server_lost", "server_back",
                          "started", "latency", "latency", "file_opened", "file_closed", "server_lost", "server_back",
                          "started", "latency", "latency", "file_opened", "file_closed", "stopped"], "\(kinds)")
        let closed = lines.filter { $0["event"] as? String == "file_closed" }
        #expect(closed.compactMap { $0["frames"] as? Int } == recordings.map(\.frames))
        let ends = recordings.map(\.frames).reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1) }
        #expect(closed.compactMap { $0["frame"] as? Int } == ends)
        let back = lines.filter { $0["event"] as? String == "server_back" }
        #expect(back.count == 2)
        for event in back {
            let seconds = event["gap_seconds"] as? Double ?? -1
            #expect(seconds > 0 && seconds < 60, "\(event)")
            #expect((event["frames_lost"] as? Int).map(Double.init) == (seconds * 48000).rounded(), "\(event)")   // no Int(): a wild gap must not trap
        }
        #expect(lines.last?["frame"] as? Int == ends.last)
    }

    @Test("on PipeWire too, two server crashes in one run leave three valid files holding what arrived, and exit 0")
    func twoRestartsOnPipeWire() throws {
        let first = try ServerKind.startPipeWire()
        let source = try first.startTestSource(channels: 2)
        let path = dir + "/pw.wav"
        let events = dir + "/pw.jsonl"
        let run = try Run.start(Run.jackwave, ["--record", path, "-p", "src:out_*", "--reconnect", "--events", events],
                                server: first.name)
        let pieces = (1...3).map { dir + "/pw-00\($0).wav" }
        let take = ReconnectingTake(run: run, source: source, pieces: pieces)
        defer { take.cleanUp() }
        // PipeWire's libjack says nothing when its server dies: jackwave notices the silence.
        try take.restartTwice(stop: { restart in
            if restart == 1 { first.crash() } else { take.servers.first?.signal(SIGKILL); _ = take.servers.first?.finish(timeout: 10) }
        }, restart: { try PipeWireServer.startAgain(first) }, startSource: { try first.startTestSource(channels: 2) })
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("(3 files)"), "\(out.stderr)")
        let recordings = try pieces.map { try Recording($0) }
        let closed = try EventStream.read(events).filter { $0["event"] as? String == "file_closed" }
        #expect(closed.compactMap { $0["frames"] as? Int } == recordings.map(\.frames))
        // PipeWire under load skips a late client's cycle (jackwave and the source both say
        // so) or reports an xrun; the pattern is checked frame by frame whenever none did.
        let sourceOutputs = take.sourceOutputs + take.source.stdoutSoFar
        let xruns = out.stderr.firstMatch(of: #/, (\d+) xruns/#).flatMap { Int($0.1) }
        if xruns == 0 && !out.stderr.contains("skipped") && !sourceOutputs.contains("skipped") {
            for (piece, rec) in zip(pieces, recordings) {
                #expect(TestPattern.firstMismatch(in: rec, from: 0) == nil, "\(piece)")
            }
        }
    }
}

/// A `--reconnect` recording of the test source, with the servers and sources started
/// again under it; `cleanUp` stops them all.
final class ReconnectingTake {
    let run: Run.Running
    let pieces: [String]
    private(set) var source: Run.Running
    private(set) var servers: [Run.Running] = []
    /// What the stopped sources printed (PipeWire's says "skipped" when a cycle was).
    private(set) var sourceOutputs = ""

    init(run: Run.Running, source: Run.Running, pieces: [String]) {
        self.run = run
        self.source = source
        self.pieces = pieces
    }

    /// Waits for frames in the first piece; then twice: stops the server (`stop(n)`) and
    /// the source, waits until jackwave waits, starts a server and a source again, and waits
    /// until jackwave is back and records into the next piece.
    func restartTwice(stop: (Int) -> Void, restart: () throws -> Run.Running, startSource: () throws -> Run.Running) throws {
        #expect(run.waitForRecordedFrames(pieces[0], moreThan: 24000), "\(run.stderrSoFar)")
        for n in 1...2 {
            stop(n)
            source.signal(SIGTERM)
            sourceOutputs += source.finish().stdout
            #expect(waitUntil { self.occurrences("waiting for a JACK server to come back") == n || !self.run.isRunning },
                    "\(run.stderrSoFar)")
            servers.append(try restart())
            source = try startSource()
            #expect(waitUntil { self.occurrences("the server is back") == n || !self.run.isRunning }, "\(run.stderrSoFar)")
            #expect(run.waitForRecordedFrames(pieces[n], moreThan: 24000), "\(run.stderrSoFar)")
        }
    }

    /// How many times `text` occurs in jackwave's stderr so far.
    func occurrences(_ text: String) -> Int { run.stderrSoFar.components(separatedBy: text).count - 1 }

    /// Stops jackwave (if still running), the source and the servers started again.
    func cleanUp() {
        run.signal(SIGKILL)
        source.signal(SIGTERM); _ = source.finish()
        for s in servers { s.signal(SIGTERM); _ = s.finish(timeout: 10) }
    }
}
