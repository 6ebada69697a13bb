import Foundation
import JackwaveTestSupport
import Testing

/// `--on-close` and `--on-event` fail alone: a command that hangs is stopped at its bound, and
/// one that leaves a child running for ever (in its group, or escaped with setsid, holding
/// jackwave's stderr) is not waited for. The run ends within its bound, the audio whole. On
/// both servers: the hooks' threads are the same, the server's pace is not.
@Suite("Hook faults: the audio goes on", .serialized)
struct HookFaultEndToEndTests {
    static let seconds = 6.0

    @Test("--on-close and --on-event commands that hang are stopped at their bounds, said and events, the run ends on time with the audio whole, exit 0",
          arguments: ServerKind.allCases)
    func hanging(on kind: ServerKind) throws {
        let fault = try SideJobFault(kind)
        defer { fault.end() }
        let events = fault.dir + "/events.jsonl"
        // Three pieces, each one's command hanging until its 1-s bound; `stopped`'s --on-event
        // command hanging until the end's bound (EventHook.finishSeconds, 10 s).
        let run = try fault.start(["--record", fault.dir + "/take.wav", "-p", fault.sourcePort, "-c", "1", "-d", "\(Self.seconds)",
                                   "--split", "2", "--no-meter", "--events", events,
                                   "--on-close", "exec sleep 1000 #", "--on-close-timeout", "1",
                                   "--on-event", "exec sleep 1000"])
        // The run, its last command's bound and grace (1 + 2 s), the end's bound on
        // --on-event (10 s) and its grace (2 s), and room for a loaded machine.
        let out = fault.finish(run, within: Self.seconds + 3 + 12 + 30)
        #expect(out.status == 0, "\(out.stderr)")
        try fault.expectWholeAudio(fault.dir + "/take.wav", seconds: Self.seconds, out)
        let pieces = try fault.pieces(fault.dir + "/take.wav")
        #expect(pieces.count == 3)
        let timedOut = try SideJobFault.events(events, "on_close_timeout")
        #expect(timedOut.compactMap { $0["path"] as? String } == pieces, "\(timedOut)")
        #expect(out.stderr.components(separatedBy: "ran past 1 s; its process group was stopped").count - 1 == 3, "\(out.stderr)")
        #expect(out.stderr.contains("--on-event: the commands still running at the end were given 10 s; the last was stopped"),
                "\(out.stderr)")
        #expect(out.stderr.contains("jackwave-on-event was stopped (SIGTERM) at the end of the run"), "\(out.stderr)")
    }

    @Test("--on-close and --on-event commands that leave a child running for ever, in their group or escaped with setsid, are not waited for: the run ends on time, the audio whole, exit 0",
          arguments: ServerKind.allCases)
    func leftChildren(on kind: ServerKind) throws {
        let fault = try SideJobFault(kind)
        defer { fault.end() }
        let pids = fault.dir + "/children.txt", events = fault.dir + "/events.jsonl"
        // Each child keeps the command's stdout and stderr (jackwave's stderr) open.
        let run = try fault.start(["--record", fault.dir + "/take.wav", "-p", fault.sourcePort, "-c", "1", "-d", "\(Self.seconds)",
                                   "--split", "2", "--no-meter", "--events", events,
                                   "--on-close", "sleep 1000 & echo $! >> '\(pids)'; setsid sleep 1000 & echo $! >> '\(pids)' #",
                                   "--on-event", "sleep 1000 & echo $! >> '\(pids)'"])
        // The children hold the pipe this test reads jackwave's stderr from: jackwave's end is
        // when it exits, not when the pipe closes.
        let ended = waitUntil(timeout: Self.seconds + 30) { !run.isRunning }
        let children = ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
        let alive = children.filter { kill($0, 0) == 0 }
        for child in children { kill(child, SIGKILL) }
        let out = fault.finish(run, within: 10)
        #expect(ended, "jackwave did not end: \(out.stderr)")
        #expect(out.status == 0, "\(out.stderr)")
        try fault.expectWholeAudio(fault.dir + "/take.wav", seconds: Self.seconds, out)
        // Three pieces' two children each, and `stopped`'s one: all ran, none was waited
        // for, and what a command leaves running is its own.
        #expect(children.count == 7, "\(children)")
        #expect(alive.count == children.count, "\(alive) of \(children) were alive when jackwave ended")
        #expect(!out.stderr.contains("--on-close:") && !out.stderr.contains("--on-event"), "\(out.stderr)")
        #expect(try SideJobFault.events(events, "on_close_failed").isEmpty)
    }
}
