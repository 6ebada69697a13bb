import Foundation
import JackwaveTestSupport
import JackwaveEngine
import JackwaveHost
import JackwaveSoundFiles
import Testing

/// Declared latency: the test source's `--latency N` states a capture latency through a
/// latency callback, as a sound card or a network link would; jackwave reads what its
/// inputs' sources declare, says it, puts it in `--events`, and subtracts it from the
/// files' `bext` time.
@Suite("Declared capture latency", .serialized)
struct LatencyEndToEndTests {
    let dir = temporaryDirectory()

    /// `jack_lsp -l PORT`'s capture latency range, or nil.
    static func captureLatency(of port: String, on server: any TestServer) throws -> DeclaredLatency? {
        let out = try Run.tool("/usr/bin/jack_lsp", ["-l", port], server: server.name, timeout: 10)
        guard let line = out.stdout.split(separator: "\n").first(where: { $0.contains("port capture latency") }),
              let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]") else { return nil }
        let numbers = line[line.index(after: open)..<close].split(separator: " ").compactMap { Int($0) }
        return numbers.count == 2 ? DeclaredLatency(minimum: numbers[0], maximum: numbers[1]) : nil
    }

    /// `jackwave-testsource CHANNELS NAME --latency FRAMES`, once it has declared them.
    static func startSource(_ name: String, latency: Int, on server: any TestServer) throws -> Run.Running {
        let source = try server.startArmedSource(["--latency", "\(latency)"], channels: 1, name: name)
        guard source.waitForStdout("latency \(latency)") else {
            throw TestFailure("\(name) did not declare its latency: \(source.stdoutSoFar) \(source.stderrSoFar)")
        }
        return source
    }

    /// Seconds since local midnight of an ISO 8601 local time (`…T15:09:26.535+01:00`).
    static func secondsSinceMidnight(iso: Substring) -> Double? {
        guard let t = iso.split(separator: "T").last else { return nil }
        let clock = t.prefix(12).split(separator: ":")
        guard clock.count == 3, let h = Double(clock[0]), let m = Double(clock[1]), let s = Double(clock[2]) else { return nil }
        return h * 3600 + m * 60 + s
    }

    @Test("the test source declares --latency N on its ports, and twice that after SIGUSR1", arguments: ServerKind.allCases)
    func sourceDeclares(kind: ServerKind) throws {
        let server = try kind.start()
        defer { server.stop() }
        let source = try Self.startSource("lat", latency: 1000, on: server)
        defer { source.signal(SIGTERM); _ = source.finish(timeout: 10) }
        #expect(waitUntil(timeout: 10) { (try? Self.captureLatency(of: "lat:out_1", on: server)) == DeclaredLatency(minimum: 1000, maximum: 1000) })
        source.signal(SIGUSR1)
        #expect(source.waitForStdout("latency 2000"), "\(source.stdoutSoFar)")
        #expect(waitUntil(timeout: 10) { (try? Self.captureLatency(of: "lat:out_1", on: server)) == DeclaredLatency(minimum: 2000, maximum: 2000) })
    }

    /// jackd only: the watch runs in the test process, whose libjack is jackd's (PipeWire's
    /// is chosen by the library path before a process starts; jackwave's own runs below
    /// read the same way on both servers).
    @Test("LatencyWatch reads what an input's source declares, nothing for an unconnected input, and again after the latency callback")
    func watchFollows() throws {
        let server = try ServerKind.jackd.start()
        defer { server.stop() }
        let source = try Self.startSource("lat", latency: 1000, on: server)
        defer { source.signal(SIGTERM); _ = source.finish(timeout: 10) }
        let client = try JackClient(name: "watcher", server: server.name)
        let input = try client.registerAudioPort(shortName: "in_1", direction: .input)
        let watch = LatencyWatch(client: client, inputs: [input])
        watch.install()
        try client.activate()
        defer { client.deactivate(); _ = client.close(timeout: 5) }
        #expect(watch.read() == [nil], "nothing connected: no latency")
        #expect(client.connect(source: "lat:out_1", destination: "watcher:in_1") == 0)
        #expect(watch.read() == [DeclaredLatency(minimum: 1000, maximum: 1000)], "read from the source at once")
        // The connection's own latency callback may come a moment after `jack_connect`
        // returns; count from after it, so that the one awaited below is the change's.
        #expect(waitUntil(timeout: 10) { watch.callbackCount > 0 })
        let callbacks = watch.callbackCount
        source.signal(SIGUSR1)
        #expect(waitUntil(timeout: 10) { watch.readIfChanged() == [DeclaredLatency(minimum: 2000, maximum: 2000)] })
        // The new range can be read from the source before the server has told the watch:
        // wait, with a bound, for the callback rather than expect it already there.
        #expect(waitUntil(timeout: 10) { watch.callbackCount > callbacks })
    }

    @Test("a recording's bext time is when its first sample was captured: frame 0's arrival less the latency the source declares",
          arguments: ServerKind.allCases)
    func stampSubtracts(kind: ServerKind) throws {
        let server = try kind.start()
        defer { server.stop() }
        // 100 ms: far beyond the millisecond to which the arrival is printed.
        let source = try Self.startSource("lat", latency: 4800, on: server)
        defer { source.signal(SIGTERM); _ = source.finish(timeout: 10) }
        let path = dir + "/late-\(kind).wav", events = dir + "/late-\(kind).jsonl"
        let out = try Run.jackwave(["--record", path, "-p", "lat:out_1", "-d", "0.5", "--print-start", "--events", events,
                                    "--no-meter"], server: server.name)
        #expect(out.status == 0, "\(out.stderr)")
        let said = "capture latency 4800 frames (100.000 ms) on in_1: subtracted from the files' bext time"
        #expect(out.stderr.components(separatedBy: said).count - 1 == 1, "once, at the start: \(out.stderr)")
        let latency = try EventStream.read(events).filter { $0["event"] as? String == "latency" }
        #expect(latency.count == 1 && latency.first?["input"] as? String == "in_1" && latency.first?["min_frames"] as? Int == 4800
                && latency.first?["max_frames"] as? Int == 4800 && latency.first?["connected"] as? Bool == true, "\(latency)")
        // The arrival of frame 0, as printed (to the millisecond, truncated), and the stamp.
        let line = try #require(out.stderr.split(separator: "\n").first { $0.hasPrefix("jackwave: first frame at ") })
        let iso = line.dropFirst("jackwave: first frame at ".count)
        let arrival = try #require(Self.secondsSinceMidnight(iso: iso))
        let info = try #require(try SoundFile(readingFrom: path).broadcastInfo)
        let stamp = Double(info.timeReference) / 48000
        let rounding = 1.0 / 48000
        #expect(stamp >= arrival - 0.1 - rounding && stamp <= arrival - 0.1 + 0.001 + rounding,
                "stamp \(stamp), arrival \(arrival): \(info.description)")
        #expect(info.description.hasPrefix("jackwave: first frame at \(iso); captured at "), "\(info.description)")
        #expect(info.description.hasSuffix(" (capture latency 4800 frames at 48000 Hz)"), "\(info.description)")
    }

    @Test("a latency that changes during a run is said and evented; the stamp keeps the one read at the start",
          arguments: ServerKind.allCases)
    func latencyChanges(kind: ServerKind) throws {
        let server = try kind.start()
        defer { server.stop() }
        let source = try Self.startSource("lat", latency: 480, on: server)
        defer { source.signal(SIGTERM); _ = source.finish(timeout: 10) }
        let path = dir + "/change-\(kind).wav", events = dir + "/change-\(kind).jsonl"
        let run = try Run.start(Run.jackwave, ["--record", path, "-p", "lat:out_1", "--events", events, "--no-meter"],
                                server: server.name)
        defer { run.signal(SIGKILL) }
        #expect(run.waitForStderr("capture latency 480 frames"), "\(run.stderrSoFar)")
        source.signal(SIGUSR1)
        #expect(run.waitForStderr("capture latency 960 frames (20.000 ms) on in_1 (changed"), "\(run.stderrSoFar)")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("capture latency 960 frames (20.000 ms) on in_1 (at the end; it changed 1 time during the run"),
                "\(out.stderr)")
        let latency = try EventStream.read(events).filter { $0["event"] as? String == "latency" }
        #expect(latency.compactMap { $0["max_frames"] as? Int } == [480, 960], "\(latency)")
        let info = try #require(try SoundFile(readingFrom: path).broadcastInfo)
        #expect(info.description.hasSuffix("(capture latency 480 frames at 48000 Hz)"), "\(info.description)")
    }

    @Test("inputs whose sources declare different latencies are each told; the stamp subtracts the largest",
          arguments: ServerKind.allCases)
    func inputsDiffer(kind: ServerKind) throws {
        let server = try kind.start()
        defer { server.stop() }
        let late = try Self.startSource("late", latency: 960, on: server)
        let plain = try server.startTestSource(channels: 1, name: "plain")
        defer { for s in [late, plain] { s.signal(SIGTERM); _ = s.finish(timeout: 10) } }
        let path = dir + "/differ-\(kind).wav"
        let out = try Run.jackwave(["--record", path, "-p", "late:out_1", "-p", "plain:out_1", "-d", "0.3", "--no-meter"],
                                   server: server.name)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("capture latency differs between inputs: 960 frames (20.000 ms) on in_1, none declared on in_2 (unknown); the files' bext time subtracts the largest, 960 frames (20.000 ms)"),
                "\(out.stderr)")
        let info = try #require(try SoundFile(readingFrom: path).broadcastInfo)
        #expect(info.description.hasSuffix("(capture latency 960 frames at 48000 Hz, the largest of the inputs': in_1 960, in_2 0)"),
                "\(info.description)")
    }
}
