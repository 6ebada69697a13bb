import Foundation
import Testing

/// Leaving jackwave armed: level-triggered takes with pre-roll, against a real
/// `jackd -d dummy` (period 256) and `jackwave-testsource --bursts`, whose every sample
/// says whether it is loud and which pattern frame it is.
@Suite("Armed recording: triggered takes with pre-roll", .serialized)
struct ArmedEndToEndTests {
    let server: JackServer
    let dir = temporaryDirectory()

    init() throws { server = try JackServer() }

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
        #expect(BurstPattern.decode(take[96000 + burst - 1, 0]).loud)
        #expect(!BurstPattern.decode(take[96000 + burst, 0]).loud)
        #expect(out.stderr.contains("take 1: \(dir)/t-001.wav: "))
    }

    @Test("two bursts separated by more silence than --stop-after make two takes")
    func twoTakes() throws {
        let path = dir + "/two.wav"
        let out = try armedRun(["--record", path, "--pre-roll", "0.5", "--trigger", "-30dB", "--stop-after", "0.5", "--takes", "2"],
                               bursts: [50 * 256, 188 * 256, 50 * 256], heard: 48000)
        #expect(out.status == 0, "\(out.stderr)")
        for name in ["two-001.wav", "two-002.wav"] {
            let take = try Recording(dir + "/" + name)
            #expect(take.frames == 24000 + 50 * 256 + 24000, "\(name): \(out.stderr)")
            #expect(BurstPattern.firstLoud(in: take) == 24000, "\(name)")
            #expect(BurstPattern.firstSlip(in: take) == nil, "\(name)")
        }
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
