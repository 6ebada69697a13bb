import Foundation
@testable import JackwaveRunSupport
import Testing

/// An `--on-close` command cannot hurt the recording: its own process group, none of
/// jackwave's descriptors, a path that is no option, a bounded run.
@Suite("On-close hook process")
struct HookProcessTests {
    @Test("a relative path reaches the command as ./name, so a file named -x.wav is no option to it")
    func relativePath() {
        #expect(HookProcess.argument(for: "-x.wav") == "./-x.wav")
        #expect(HookProcess.argument(for: "dir/take.wav") == "./dir/take.wav")
        #expect(HookProcess.argument(for: "/var/lib/take.wav") == "/var/lib/take.wav")
        #expect(HookProcess.argument(for: "../take.wav") == "../take.wav")
        let outcome = HookProcess.run(#"f() { [ "$1" = ./-x.wav ]; }; f"#, path: "-x.wav", timeout: 10, grace: 1)
        #expect(outcome == .succeeded)
    }

    @Test("the command leads a process group of its own: a signal to jackwave's group does not reach it")
    func ownGroup() {
        // Field 5 of /proc/PID/stat is the process group; the shell's own pid is $$.
        let outcome = HookProcess.run(#"f() { set -- $(cat /proc/$$/stat); [ "$5" = "$$" ] && [ "$5" != "\#(getpgrp())" ]; }; f"#,
                                      path: "/x.wav", timeout: 10, grace: 1)
        #expect(outcome == .succeeded)
    }

    @Test("a descriptor jackwave left open without close-on-exec is not inherited")
    func noInheritedDescriptors() {
        let leaked = open("/dev/null", O_RDONLY)   // no O_CLOEXEC, on purpose
        defer { close(leaked) }
        #expect(leaked > 2)
        let outcome = HookProcess.run("f() { [ ! -e /proc/$$/fd/\(leaked) ] && [ -e /proc/$$/fd/2 ]; }; f",
                                      path: "/x.wav", timeout: 10, grace: 1)
        #expect(outcome == .succeeded)
    }

    @Test("past its timeout the command's whole group gets SIGTERM, and the wait ends")
    func timeoutTerminates() {
        let started = Date()
        let outcome = HookProcess.run("sleep 1000 & sleep 1000 #", path: "/x.wav", timeout: 0.3, grace: 5)
        #expect(outcome == .timedOut(seconds: 0.3, signal: "TERM"))
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("a command that ignores SIGTERM gets SIGKILL after the grace")
    func timeoutKills() {
        let outcome = HookProcess.run("trap '' TERM; sleep 1000 #", path: "/x.wav", timeout: 0.2, grace: 0.3)
        #expect(outcome == .timedOut(seconds: 0.2, signal: "KILL"))
    }

    @Test("asked to stop, the running command is stopped; a failure and a success are told apart")
    func stopAndStatus() {
        #expect(HookProcess.run("sleep 1000 #", path: "/x.wav", timeout: nil, grace: 1, stop: { true }) == .stopped(signal: "TERM"))
        #expect(HookProcess.run("exit 3 #", path: "/x.wav", timeout: nil, grace: 1) == .failed("exit 3 # /x.wav exited with status 3"))
        #expect(HookProcess.run("true", path: "/x.wav", timeout: nil, grace: 1) == .succeeded)
    }
}
