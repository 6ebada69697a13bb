import Foundation
import Glibc
@testable import JackwaveRunSupport
import JackwaveTestSupport
import JackwaveVocabulary
import Testing

/// `--on-event CMD` and the spawner under it: the event's JSON on stdin, its kind in
/// `JACKWAVE_EVENT`, a process group of its own, a bound on its time, a bound on the queue.
@Suite("Event hook")
struct EventHookTests {
    let dir: String = {
        let path = NSTemporaryDirectory() + "jackwave-hook-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @Test("the command gets the event's JSON line on stdin and its kind in JACKWAVE_EVENT, one event at a time, in order")
    func jsonOnStdin() throws {
        let out = dir + "/got.txt"
        let hook = EventHook(command: "{ echo \"$JACKWAVE_EVENT\"; cat; } >> '\(out)'")
        hook.start()
        let first = try #require(EventLog.line(.silenceStarted, frame: 1440000, [("since_frame", .int(0))]))
        let second = try #require(EventLog.line(.silenceEnded, frame: 1500000, [("duration", .double(31.25))]))
        hook.fire(.silenceStarted, line: first)
        hook.fire(.xrun, line: second)       // not for the hook: ignored
        hook.fire(.silenceEnded, line: second)
        hook.finish()
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.element(at: 0) == "silence_started" && lines.element(at: 2) == "silence_ended")
        let fourth = try #require(lines.element(at: 3), "\(lines)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(fourth.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "silence_ended" && object["duration"] as? Double == 31.25)
        #expect(hook.messages.drain().isEmpty)
    }

    @Test("a failing command is one line; the next event still runs")
    func failure() throws {
        let hook = EventHook(command: "exit 4")
        hook.start()
        hook.fire(.serverLost, line: try #require(EventLog.line(.serverLost, frame: 0)))
        hook.finish()
        #expect(hook.messages.drain() == ["\(setting: .onEvent) (server_lost): jackwave-on-event exited with status 4"])
    }

    @Test("a command that outlives its bound is ended with its whole process group, children too")
    func timeout() throws {
        let pidFile = dir + "/child.pid"
        let start = Date()
        let outcome = HookProcess.run("sleep 30 & echo $! > '\(pidFile)'; wait", name: "slow", arguments: [], label: "slow",
                                      timeout: 0.5, grace: 2)
        #expect(outcome == .timedOut(seconds: 0.5, signal: "TERM"))
        #expect(Date().timeIntervalSince(start) < 10)
        let child = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // The backgrounded child went with the group (it may linger a moment as a zombie of init).
        #expect(waitUntil { kill(child, 0) != 0 || (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?.contains(") Z ") == true })
    }

    @Test("the command runs in a process group of its own and holds no descriptor of jackwave's beyond 0, 1 and 2")
    func isolation() throws {
        let out = dir + "/iso.txt"
        let keep = open(dir + "/open-in-parent", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(keep) }
        #expect(HookProcess.run("cut -d' ' -f5 /proc/$$/stat > '\(out)'; ls /proc/$$/fd >> '\(out)'", name: "iso", arguments: [],
                                stdin: Array("x".utf8), label: "iso", timeout: 10, grace: 2) == .succeeded)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let group = try #require(lines.first, "\(lines)")
        #expect(Int32(group) != getpgrp())
        // The shell's own descriptors: 0, 1, 2, and the one `ls` reads /proc through (3 or up).
        #expect(Array(lines.dropFirst()).filter { Int($0).map { $0 > 2 } ?? false }.count <= 1, "\(lines)")
    }

    @Test("events beyond the queue's bound are dropped, counted and said")
    func bound() throws {
        let gate = dir + "/gate"
        let hook = EventHook(command: "while [ ! -e '\(gate)' ]; do sleep 0.01; done")
        hook.start()
        let line = try #require(EventLog.line(.clipping, frame: 0))
        for _ in 0..<(EventHook.queueLimit + 20) { hook.fire(.clipping, line: line) }
        FileManager.default.createFile(atPath: gate, contents: nil)
        hook.finish()
        let said = hook.messages.drain().map(\.plain)
        #expect(said.contains { $0.hasPrefix("‹onEvent›: ") && $0.contains("were not handed") }, "\(said)")
    }

    @Test("at the end, a command that hangs is stopped once the end's bound has passed, and the events still queued are dropped, said")
    func endIsBounded() throws {
        let hook = EventHook(command: "exec sleep 1000")
        hook.start()
        let line = try #require(EventLog.line(.serverLost, frame: 0))
        for _ in 0..<3 { hook.fire(.serverLost, line: line) }
        // The whole wait: the bound, then the grace for SIGTERM; a hook that waited for its
        // command's own 60 s, three times over, would not return within 30.
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            hook.finish(within: 0.5)
            ended.signal()
        }
        #expect(ended.wait(timeout: .now() + 30) == .success, "finish did not return")
        let said = hook.messages.drain().map(\.plain)
        #expect(said.contains("‹onEvent›: the commands still running at the end were given 0.5 s; the last was stopped and 2 events more not handed to it"),
                "\(said)")
        #expect(said.contains("‹onEvent› (server_lost): jackwave-on-event was stopped (SIGTERM) at the end of the run"), "\(said)")
    }
}

/// Polls `condition` until it holds or `timeout` seconds pass.
func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
