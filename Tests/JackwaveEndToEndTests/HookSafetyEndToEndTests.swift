import Foundation
import JackwaveTestSupport
import Testing

/// `--on-close` hooks cannot hurt the recording, and SIGHUP (a dropped ssh session) ends a
/// take as SIGTERM does.
@Suite("Hooks that cannot hurt the recording, and SIGHUP", .serialized)
struct HookSafetyEndToEndTests {
    let dir = temporaryDirectory()

    /// The pid a hook wrote (its shell's, which leads its process group), once it is there.
    func hookPid(_ file: String) -> pid_t? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Whether any process is left in process group `group`.
    func groupAlive(_ group: pid_t) -> Bool { kill(-group, 0) == 0 }

    @Test("--on-close 'sleep 1000' and SIGTERM to jackwave's process group: the hook, in a group of its own, runs on; past --on-close-timeout its group is stopped, said and an event, exit 0")
    func sleepingHookTimesOut() throws {
        let server = try ServerKind.jackd.start()
        let path = dir + "/slow.wav", events = dir + "/slow.jsonl", pidFile = dir + "/slow.pid"
        // setsid: jackwave leads a process group, as a login shell's job would; the signal
        // below goes to that whole group, as Ctrl-C at a terminal does.
        let run = try Run.start("/usr/bin/setsid", [Run.jackwave, "--record", path, "-c", "1", "--manual", "--events", events,
                                                    "--on-close", "echo $$ > '\(pidFile)'; exec sleep 1000 #",
                                                    "--on-close-timeout", "2"], server: server.name)
        #expect(run.waitForRecordedFrames(path, moreThan: 4800), "\(run.stderrSoFar)")
        kill(-run.pid, SIGTERM)
        // The take is finalized first; then the hook starts and jackwave waits for it.
        #expect(run.waitForStderr("jackwave: recorded \(path)"), "\(run.stderrSoFar)")
        #expect(waitUntil(timeout: 30) { hookPid(pidFile) != nil || !run.isRunning })
        let hook = try #require(hookPid(pidFile))
        #expect(getpgid(hook) == hook && getpgid(hook) != run.pid, "the hook leads a group of its own")
        #expect(run.isRunning, "jackwave waits for its hook")
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("--on-close: echo $$ > '\(pidFile)'; exec sleep 1000 # \(path) ran past 2 s; its process group was stopped (SIGTERM)"),
                "\(out.stderr)")
        #expect(!groupAlive(hook), "the hook's group is gone")
        let timedOut = try EventStream.read(events).filter { $0["event"] as? String == "on_close_timeout" }
        #expect(timedOut.count == 1)
        #expect(timedOut.first?["path"] as? String == path && timedOut.first?["signal"] as? String == "TERM")
        #expect(try Recording(path).frames > 4800)
    }

    @Test("without a timeout, a second SIGTERM while jackwave waits for a hook stops the hook's group and ends the wait")
    func secondSignalStopsHook() throws {
        let server = try ServerKind.jackd.start()
        let path = dir + "/waiting.wav", pidFile = dir + "/waiting.pid"
        let run = try Run.start(Run.jackwave, ["--record", path, "-c", "1", "--manual", "-d", "0.5",
                                               "--on-close", "echo $$ > '\(pidFile)'; exec sleep 1000 #"], server: server.name)
        #expect(waitUntil(timeout: 30) { hookPid(pidFile) != nil || !run.isRunning })
        let hook = try #require(hookPid(pidFile))
        #expect(run.isRunning)
        run.signal(SIGTERM)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("was stopped (SIGTERM): jackwave was told to stop while waiting for it"), "\(out.stderr)")
        #expect(!groupAlive(hook))
        #expect(try Recording(path).frames == 24000)
    }

    @Test("SIGHUP ends a take as SIGTERM does: the file finalized, the summary said, the hooks run, exit 0",
          arguments: ServerKind.allCases)
    func hangUp(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/hangup-\(kind).wav", events = dir + "/hangup-\(kind).jsonl", list = dir + "/hangup-\(kind).txt"
        let run = try Run.start(Run.jackwave, ["--record", path, "-c", "1", "--manual", "--events", events,
                                               "--on-close", "echo >> '\(list)'"], server: server.name)
        #expect(run.waitForRecordedFrames(path, moreThan: 4800), "\(run.stderrSoFar)")
        run.signal(SIGHUP)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        let rec = try Recording(path)
        #expect(out.stderr.contains("jackwave: recorded \(path): ") && out.stderr.contains("\(rec.frames) frames"), "\(out.stderr)")
        #expect(try String(contentsOfFile: list, encoding: .utf8) == path + "\n")
        #expect(try EventStream.read(events).last?["exit_code"] as? Int == 0)
    }
}
