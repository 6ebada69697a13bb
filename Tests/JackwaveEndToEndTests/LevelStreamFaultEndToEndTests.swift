import Foundation
import JackwaveTestSupport
import Testing

/// `--levels` beside a recording fails alone: its disk full, or a reader that stops reading
/// its pipe, never holds up the main thread (which drains the meter's ring, watches the
/// server and ends the run) nor the audio. On both servers: the main thread's loop is the
/// same whatever feeds it, and each server starves it differently when it stalls.
@Suite("Level stream faults: the audio goes on", .serialized)
struct LevelStreamFaultEndToEndTests {
    static let seconds = 6.0

    @Test("the level stream's disk full: said at once with an event, the stream stops, the recording goes on whole to its end, exit 1",
          arguments: ServerKind.allCases)
    func diskFull(on kind: ServerKind) throws {
        let fault = try SideJobFault(kind)
        defer { fault.end() }
        let mountPoint = fault.dir + "/small"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        // One page: JSON Lines rows of one input at 256-frame blocks fill it within a second.
        let mount = try Run.tool("/bin/mount", ["-t", "tmpfs", "-o", "size=4k", "tmpfs", mountPoint], server: nil)
        try #require(mount.status == 0, "cannot mount a small tmpfs here: \(mount.stderr)")
        defer { _ = try? Run.tool("/bin/umount", [mountPoint], server: nil) }
        let levels = mountPoint + "/levels.jsonl", events = fault.dir + "/events.jsonl"
        let run = try fault.start(["--record", fault.dir + "/take.wav", "-p", fault.sourcePort, "-c", "1", "-d", "\(Self.seconds)",
                                   "--levels", levels, "--no-meter", "--events", events])
        // The run's length, the stream's close (at most 2 s) and room for a loaded machine.
        let out = fault.finish(run, within: Self.seconds + 2 + 30)
        #expect(out.status == 1, "\(out.stderr)")
        try fault.expectWholeAudio(fault.dir + "/take.wav", seconds: Self.seconds, out)
        #expect(out.stderr.contains("levels: writing \(levels) failed: No space left on device; the level stream stops there (the recording goes on)"),
                "\(out.stderr)")
        let failed = try SideJobFault.events(events, "levels_failed")
        #expect(failed.count == 1, "\(failed)")
        #expect(failed.first?["path"] as? String == levels && failed.first?["reason"] as? String == "No space left on device")
        #expect(try SideJobFault.events(events, "stopped").first?["exit_code"] as? Int == 1)
    }

    @Test("a reader that stops reading the level stream's pipe holds up nothing: the run ends on time with the audio whole, the rows it did not take counted and said, exit 0",
          arguments: ServerKind.allCases)
    func stalledReader(on kind: ServerKind) throws {
        let fault = try SideJobFault(kind)
        defer { fault.end() }
        // A FIFO whose reader end this test holds open and never reads: jackwave's stdout
        // fills, and no write to it ever fails. Made one page long (F_SETPIPE_SZ, 1031 in
        // <fcntl.h>), the CSV rows of one input fill it within two seconds.
        let fifo = fault.dir + "/levels.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }
        try #require(fcntl(reader, 1031, 4096) >= 0, "F_SETPIPE_SZ: \(String(cString: strerror(errno)))")
        let events = fault.dir + "/events.jsonl"
        let run = try Run.start("/bin/sh", ["-c", "f=$1; shift; exec \"$@\" > \"$f\"", "sh", fifo, Run.jackwave, "--name", fault.client,
                                            "--record", fault.dir + "/take.wav", "-p", fault.sourcePort, "-c", "1", "-d", "\(Self.seconds)",
                                            "--levels", "-", "--no-meter", "--events", events], server: fault.server.name)
        let out = fault.finish(run, within: Self.seconds + 2 + 30)
        #expect(out.status == 0, "\(out.stderr)")
        try fault.expectWholeAudio(fault.dir + "/take.wav", seconds: Self.seconds, out)
        #expect(out.stderr.contains("rows dropped: stdout did not take them in time"), "\(out.stderr)")
        let dropped = try SideJobFault.events(events, "levels_dropped")
        #expect(dropped.count == 1 && (dropped.first?["rows"] as? Int ?? 0) > 0, "\(dropped)")
    }
}
