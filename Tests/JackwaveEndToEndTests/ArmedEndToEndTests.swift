import Foundation
import JackwaveTestSupport
import JackwaveSoundFiles
import Testing

/// The first frame on the run's timeline of take `n`, from the summary line
/// `take n: PATH: …, from frame F of the run (…)`.
func firstFrame(ofTake n: Int, in stderr: String) -> Int? {
    guard let line = stderr.split(separator: "\n").first(where: { $0.contains("take \(n): ") }),
          let range = line.range(of: "from frame ") else { return nil }
    return Int(line[range.upperBound...].prefix { $0.isNumber })
}

/// Leaving jackwave armed: level-triggered takes with pre-roll, against a real
/// `jackd -d dummy` (period 256) and `jackwave-testsource --bursts`, whose every sample
/// says whether it is loud and which pattern frame it is.
@Suite("Armed recording: triggered takes with pre-roll", .serialized)
struct ArmedEndToEndTests {
    let server: any TestServer
    let dir = temporaryDirectory()

    init() throws { server = try ServerKind.jackd.start() }

    /// Starts an armed jackwave on `src:out_1`, waits until it has heard `heard` frames
    /// (so that the pre-roll is full), starts the source's bursts and waits for the end.
    func armedRun(_ options: [String], bursts: [Int], heard: Int) throws -> Run.Output {
        let source = try server.startArmedSource(["--bursts", bursts.map(String.init).joined(separator: ",")])
        defer { source.signal(SIGTERM); _ = source.finish() }
        let run = try Run.start(Run.jackwave, options + ["-p", "src:out_1", "-c", "1", "--levels", "-"],
                                server: server.name)
        guard run.waitForLevelFrame(atLeast: heard) else {
            run.signal(SIGKILL)
            throw TestFailure("jackwave did not hear \(heard) frames: \(run.finish().stderr)")
        }
        source.signal(SIGUSR1)
        return run.finish(timeout: 120)
    }

    @Test("a triggered take starts exactly its pre-roll before the burst, holds the source's exact samples and ends --stop-after after it")
    func preRollExact() throws {
        let path = dir + "/t.wav"
        // A burst of 187 periods, so that it ends on a block boundary.
        let burst = 187 * 256
        let out = try armedRun(["--record", path, "--pre-roll", "2", "--trigger", "-30dB", "--stop-after", "1", "--takes", "1"],
                               bursts: [burst], heard: 3 * 48000)
        #expect(out.status == 0, "\(out.stderr)")
        let take = try Recording(dir + "/t-001.wav")
        #expect(BurstPattern.firstLoud(in: take) == 96000, "\(out.stderr)")
        #expect(take.frames == 96000 + burst + 48000)
        #expect(BurstPattern.firstSlip(in: take) == nil)
        // The last loud frame is the burst's last; a second after it, the take ends.
        #expect(take.sample(frame: 96000 + burst - 1, channel: 0).map { BurstPattern.decode($0).loud } == true)
        #expect(take.sample(frame: 96000 + burst, channel: 0).map { BurstPattern.decode($0).loud } == false)
        #expect(out.stderr.contains("take 1: \(dir)/t-001.wav: "))
    }

    /// Two bursts of 50 periods, 188 periods apart, into takes with 0.5 s of pre-roll and
    /// 0.5 s of --stop-after: two takes (`two-001.wav`, `two-002.wav`).
    func twoBursts(_ extra: [String] = []) throws -> Run.Output {
        let out = try armedRun(["--record", dir + "/two.wav", "--pre-roll", "0.5", "--trigger", "-30dB", "--stop-after", "0.5",
                                "--takes", "2"] + extra, bursts: [50 * 256, 188 * 256, 50 * 256], heard: 48000)
        #expect(out.status == 0, "\(out.stderr)")
        return out
    }

    @Test("two bursts separated by more silence than --stop-after make two takes")
    func twoTakes() throws {
        let out = try twoBursts()
        for name in ["two-001.wav", "two-002.wav"] {
            let take = try Recording(dir + "/" + name)
            #expect(take.frames == 24000 + 50 * 256 + 24000, "\(name): \(out.stderr)")
            #expect(BurstPattern.firstLoud(in: take) == 24000, "\(name)")
            #expect(BurstPattern.firstSlip(in: take) == nil, "\(name)")
        }
    }

    @Test("--events has a trigger event per take, at the frame that started it, with its pre-roll")
    func triggerEvents() throws {
        let events = dir + "/two.jsonl"
        let out = try twoBursts(["--events", events])
        let triggers = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains(#""event":"trigger""#) }
        #expect(triggers.count == 2, "\(triggers)")
        for (i, line) in triggers.enumerated() {
            let first = Int64(firstFrame(ofTake: i + 1, in: out.stderr) ?? -1)
            #expect(line.contains(#""take":\#(i + 1)"#) && line.contains(#""pre_roll_frames":24000"#), "\(line)")
            #expect(line.contains(#""frame":\#(first + 24000)"#), "\(line) against take \(i + 1) from frame \(first)")
        }
    }

    @Test("each take's bext time is its first frame's, pre-roll included")
    func takeStartTimes() throws {
        let out = try twoBursts()
        let firsts = [1, 2].map { n in Int64(firstFrame(ofTake: n, in: out.stderr) ?? -1) }
        let references = try ["two-001.wav", "two-002.wav"].map { name in
            try #require(try SoundFile(readingFrom: dir + "/" + name).broadcastInfo?.timeReference)
        }
        // The run's frame 0 is the same for both: the references differ by the frames between the takes.
        #expect(firsts[0] >= 0 && Int64(references[1]) - Int64(references[0]) == firsts[1] - firsts[0], "\(out.stderr)")
    }

    @Test("the level stream's take column says which take each row went to, from its trigger to its end")
    func takeColumn() throws {
        let out = try twoBursts()
        let firsts = [1, 2].map { n in Int64(firstFrame(ofTake: n, in: out.stderr) ?? -1) }
        let rows = out.stdout.split(separator: "\n")
        #expect(rows.first == "frame,time,take,dropouts,in_1")
        let takeRows = rows.dropFirst().compactMap { line -> (frame: Int64, take: Int)? in
            let f = line.split(separator: ",")
            guard f.count == 5, let frame = Int64(f[0]), let take = Int(f[2]) else { return nil }
            return (frame, take)
        }
        #expect(takeRows.first { $0.take == 1 }?.frame == firsts[0] + 24000)
        #expect(takeRows.first { $0.take == 2 }?.frame == firsts[1] + 24000)
        // A row is labelled by its first frame: the last row of take 1 is the block holding its last frame.
        let end = firsts[0] + 24000 + 50 * 256 + 24000
        let last = takeRows.last { $0.take == 1 }?.frame ?? -1
        #expect(last < end && last + 256 >= end, "take 1 ends at \(end), its last row is at \(last)")
        #expect(takeRows.contains { $0.frame > end && $0.frame < firsts[1] && $0.take == 0 })
    }

    @Test("a take never overwrites a file: takes are numbered after the files that exist, with or without --force",
          arguments: [[], ["--force"]])
    func neverOverwrites(force: [String]) throws {
        let path = dir + "/kept\(force.count).wav"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: dir + "/kept\(force.count)-001.wav"))
        let out = try armedRun(["--record", path, "--trigger", "-30dB", "--stop-after", "0.1", "--takes", "1"] + force,
                               bursts: [50 * 256], heard: 4800)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try String(contentsOfFile: dir + "/kept\(force.count)-001.wav", encoding: .utf8) == "keep me")
        #expect(try Recording(dir + "/kept\(force.count)-002.wav").frames > 50 * 256)
    }

    @Test("two bursts separated by less silence than --stop-after make one take")
    func oneTake() throws {
        let path = dir + "/one.wav"
        let out = try armedRun(["--record", path, "--pre-roll", "0.5", "--trigger", "-30dB", "--stop-after", "0.5", "--takes", "1"],
                               bursts: [50 * 256, 50 * 256, 50 * 256], heard: 48000)
        #expect(out.status == 0, "\(out.stderr)")
        let take = try Recording(dir + "/one-001.wav")
        #expect(take.frames == 24000 + 150 * 256 + 24000, "\(out.stderr)")
        #expect(BurstPattern.firstSlip(in: take) == nil)
        #expect(!FileManager.default.fileExists(atPath: dir + "/one-002.wav"))
    }
}
