import Foundation
import JackwaveTestSupport
import Testing

/// `--transport`: jackwave records while the JACK transport rolls, driven by a real client
/// (`jackwave-testsource --transport`, which counts the frames of the cycles in which
/// `jack_transport_query` said Rolling).
@Suite("Recording that follows the JACK transport", .serialized)
struct TransportEndToEndTests {
    let server: any TestServer
    let dir = temporaryDirectory()

    init() throws { server = try ServerKind.jackd.start() }

    /// Rolls the transport once, for more than `frames` frames of the take at `take`;
    /// returns the source's count of rolled frames.
    func roll(_ source: Run.Running, _ run: Run.Running, take: String, frames: Int) throws -> Int {
        source.signal(SIGUSR1)
        guard run.waitForRecordedFrames(take, moreThan: frames) else {
            throw TestFailure("the take did not grow past \(frames) frames: \(run.stderrSoFar)")
        }
        let rolls = source.stdoutSoFar.components(separatedBy: "rolled ").count - 1
        source.signal(SIGUSR2)
        guard waitUntil(timeout: 30, { source.stdoutSoFar.components(separatedBy: "rolled ").count - 1 > rolls }) else {
            throw TestFailure("the source did not see the transport stop")
        }
        let last = source.stdoutSoFar.components(separatedBy: "rolled ").last ?? ""
        return Int(last.prefix { $0.isNumber }) ?? -1
    }

    @Test("a transport roll gives a take of exactly the frames rolled, sample-exact")
    func rolledFramesExact() throws {
        let source = try server.startArmedSource(["--transport"])
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/roll.wav"
        let run = try Run.start(Run.jackwave, ["--record", path, "--transport", "--takes", "1", "-p", "src:out_1", "-c", "1",
                                               "--levels", "-"], server: server.name)
        #expect(run.waitForLevelFrame(atLeast: 4800), "\(run.stderrSoFar)")
        let rolled = try roll(source, run, take: dir + "/roll-001.wav", frames: 24000)
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        let take = try Recording(dir + "/roll-001.wav")
        #expect(take.frames == rolled, "\(out.stderr)")
        let mismatch = TestPattern.firstMismatch(in: take, from: 0)
        #expect(mismatch == nil, "first mismatch at \(String(describing: mismatch))")
    }

    @Test("each roll of the transport is its own numbered take")
    func eachRollATake() throws {
        let source = try server.startArmedSource(["--transport"])
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/rolls.wav"
        let run = try Run.start(Run.jackwave, ["--record", path, "--transport", "--takes", "2", "-p", "src:out_1", "-c", "1",
                                               "--levels", "-"], server: server.name)
        #expect(run.waitForLevelFrame(atLeast: 4800), "\(run.stderrSoFar)")
        let first = try roll(source, run, take: dir + "/rolls-001.wav", frames: 4800)
        let second = try roll(source, run, take: dir + "/rolls-002.wav", frames: 9600)
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try Recording(dir + "/rolls-001.wav").frames == first)
        #expect(try Recording(dir + "/rolls-002.wav").frames == second)
    }
}
