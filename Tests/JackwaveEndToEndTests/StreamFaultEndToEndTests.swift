import Foundation
import JackwaveTestSupport
import Testing

/// `--stream` fails alone: an Icecast server that goes away for good, and one that stops
/// reading (SIGSTOP: it keeps its socket, the kernel's buffers fill, then nothing moves),
/// never make the writer wait: it only copies into the stream's ring, and libshout runs,
/// non-blocking, on the stream's own thread. On both servers: the writer that feeds the
/// stream is the same, the server's pace is not.
@Suite("Stream faults: the audio goes on", .serialized)
struct StreamFaultEndToEndTests {
    /// jackwave's arguments: the pattern recorded for `seconds`, streamed to `url`.
    static func arguments(_ fault: SideJobFault, seconds: Double, url: String, quality: String? = nil) -> [String] {
        ["--record", fault.dir + "/take.wav", "-p", fault.sourcePort, "-c", "1", "-d", "\(seconds)", "--no-meter",
         "--events", fault.dir + "/events.jsonl", "--stream", url] + (quality.map { ["--stream-quality", $0] } ?? [])
    }

    @Test("the Icecast server gone for good: the loss is said and an event, the stream tries again, the recording goes on whole to its end, exit 0",
          arguments: ServerKind.allCases)
    func serverGone(on kind: ServerKind) throws {
        let fault = try SideJobFault(kind)
        defer { fault.end() }
        let icecast = try IcecastServer()
        let seconds = 10.0
        let run = try fault.start(Self.arguments(fault, seconds: seconds, url: "icecast://source@127.0.0.1:\(icecast.port)/live.ogg"),
                                  environment: ["JACKWAVE_STREAM_PASSWORD": icecast.sourcePassword])
        defer { if run.isRunning { run.signal(SIGKILL) } }
        #expect(run.waitForStderr("stream: connected to icecast://"), "\(run.stderrSoFar)")
        icecast.stop()
        // The run's length, the stream's end (StreamReport.finishSeconds, 5 s), and room.
        let out = fault.finish(run, within: seconds + 5 + 30)
        #expect(out.status == 0, "\(out.stderr)")
        try fault.expectWholeAudio(fault.dir + "/take.wav", seconds: seconds, out)
        #expect(out.stderr.contains("stream: lost icecast://source@127.0.0.1:\(icecast.port)/live.ogg: "), "\(out.stderr)")
        #expect(out.stderr.contains("(the recording goes on)"), "\(out.stderr)")
        #expect(out.stderr.contains(" streamed in 1 connection, "), "\(out.stderr)")
        let events = fault.dir + "/events.jsonl"
        #expect(try SideJobFault.events(events, "stream_lost").count == 1)
        #expect(try SideJobFault.events(events, "stream_connected").count == 1)
    }

    @Test("an Icecast server that stops reading (SIGSTOP): the stalled connection is given up, said and an event, while the recording goes on whole to its end, exit 0",
          .enabled(if: NetworkNamespaces.available), arguments: ServerKind.allCases)
    func stalledSocket(on kind: ServerKind) throws {
        let fault = try SideJobFault(kind)
        defer { fault.end() }
        // Across a link (a veth pair), as a station's server is. The two hosts' TCP buffers
        // are made small (each namespace has its own sysctls): grown as they would be, the
        // kernels would take a minute of stream (measured: 1 MB sent into a stopped server
        // in 30 s) before anything stalls, and what is tested is what comes after.
        let hosts = try NetworkNamespaces()
        for (side, setting) in [(hosts.jackwaveSide, "net.ipv4.tcp_wmem=4096 16384 65536"),
                                (hosts.peerSide, "net.ipv4.tcp_rmem=4096 16384 65536")] {
            let set = try Run.tool("/usr/sbin/ip", ["netns", "exec", side, "/usr/sbin/sysctl", "-q", "-w", setting], server: nil)
            try #require(set.status == 0, "\(setting): \(set.stderr)")
        }
        let icecast = try IcecastServer(on: hosts)
        defer { icecast.resume() }
        // MP3 at 320 kbit/s fills 128 KiB of buffers within seconds; then the server has taken
        // nothing for Streamer.stalledSeconds (10 s), and the connection is given up.
        let seconds = 30.0
        let run = try fault.start(Self.arguments(fault, seconds: seconds, url: "icecast://source@\(icecast.host):\(icecast.port)/live.mp3",
                                                 quality: "320k"),
                                  environment: ["JACKWAVE_STREAM_PASSWORD": icecast.sourcePassword], on: hosts)
        defer { if run.isRunning { run.signal(SIGKILL) } }
        #expect(run.waitForStderr("stream: connected to icecast://"), "\(run.stderrSoFar)")
        icecast.pause()
        let out = fault.finish(run, within: seconds + 5 + 30)
        #expect(out.status == 0, "\(out.stderr)")
        try fault.expectWholeAudio(fault.dir + "/take.wav", seconds: seconds, out)
        #expect(out.stderr.contains("stream: lost icecast://"), "\(out.stderr)")
        let lost = try SideJobFault.events(fault.dir + "/events.jsonl", "stream_lost")
        #expect(lost.count >= 1, "\(out.stderr)")
        let reason = lost.first?["reason"] as? String ?? ""
        #expect(reason == "the server took no data for 10 s" || reason.hasPrefix("the server is too slow"), "\(lost)")
    }
}
