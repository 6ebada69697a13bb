import Foundation
import JackwaveTestSupport
import Testing

/// A source client that leaves and comes back while the server stays (a network link's
/// client restarting does that): jackwave says its ports went, records silence on their
/// inputs, and connects the ports again when ports of the same full names are back.
@Suite("Sources that go and come back", .serialized)
struct SourceReturnEndToEndTests {
    let dir = temporaryDirectory()

    @Test("a source client that restarts is connected again to the same inputs, said and evented, and the recording goes on",
          arguments: ServerKind.allCases)
    func sourceRestarts(kind: ServerKind) throws {
        let server = try kind.start()
        defer { server.stop() }
        var source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish(timeout: 10) }
        let path = dir + "/return-\(kind).wav", events = dir + "/return-\(kind).jsonl"
        let run = try Run.start(Run.jackwave, ["--record", path, "-p", "src:out_*", "--events", events, "--no-meter"],
                                server: server.name)
        defer { run.signal(SIGKILL) }
        #expect(run.waitForRecordedFrames(path, moreThan: 12000), "\(run.stderrSoFar)")
        source.signal(SIGTERM)
        _ = source.finish(timeout: 10)
        #expect(run.waitForStderr("src:out_2 is gone (it fed in_2): in_2 records silence until a port of that name is back"),
                "\(run.stderrSoFar)")
        source = try server.startTestSource(channels: 2)
        #expect(run.waitForStderr("src:out_1 is back: connected to in_1 again"), "\(run.stderrSoFar)")
        #expect(run.waitForStderr("src:out_2 is back: connected to in_2 again"), "\(run.stderrSoFar)")
        // Half a second more once it is back, then the end.
        let frames = Recording.framesSoFar(path)
        #expect(run.waitForRecordedFrames(path, moreThan: frames + 24000), "\(run.stderrSoFar)")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        // The file ends with the pattern again, sample-exact, on both inputs.
        let rec = try Recording(path)
        // (On PipeWire allowing only for what the server did to the stream itself, `ServerBreaks`.)
        try #require(rec.frames >= 12000, "\(rec.frames) frames")
        let tail = rec.frames - 12000
        server.expectPattern(Recording(channels: rec.channels, samples: Array(rec.samples[(tail * rec.channels)...])),
                             stderr: out.stderr, source: source)
        let course = try EventStream.read(events).compactMap { e -> String? in
            guard let event = e["event"] as? String, event.hasPrefix("source_") else { return nil }
            return "\(event) \(e["port"] as? String ?? "?") \(e["input"] as? String ?? "?")"
        }
        for c in 1...2 {
            #expect(course.filter { $0.hasSuffix(" src:out_\(c) in_\(c)") } == ["source_gone src:out_\(c) in_\(c)", "source_back src:out_\(c) in_\(c)"],
                    "\(course)")
        }
    }

    @Test("a connection the user breaks while the source stays is left broken", arguments: ServerKind.allCases)
    func userDisconnects(kind: ServerKind) throws {
        let server = try kind.start()
        defer { server.stop() }
        let source = try server.startTestSource(channels: 1)
        let other = try server.startTestSource(channels: 1, name: "other")
        defer { for s in [source, other] { s.signal(SIGTERM); _ = s.finish(timeout: 10) } }
        let path = dir + "/broken-\(kind).wav"
        let run = try Run.start(Run.jackwave, ["--record", path, "-p", "src:out_1", "--no-meter"], server: server.name)
        defer { run.signal(SIGKILL) }
        #expect(run.waitForRecordedFrames(path, moreThan: 12000), "\(run.stderrSoFar)")
        let cut = try Run.tool("/usr/bin/jack_disconnect", ["src:out_1", "jackwave:in_1"], server: server.name)
        #expect(cut.status == 0, "\(cut.stderr)")
        #expect(run.waitForStderr("disconnected src:out_1 -> jackwave:in_1"), "\(run.stderrSoFar)")
        // Another client's port comes and goes meanwhile: still nothing to remake.
        other.signal(SIGTERM)
        _ = other.finish(timeout: 10)
        let frames = Recording.framesSoFar(path)
        #expect(run.waitForRecordedFrames(path, moreThan: frames + 12000), "\(run.stderrSoFar)")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.components(separatedBy: "connected src:out_1 -> jackwave:in_1").count - 1 == 2,
                "connected once and disconnected once, not remade: \(out.stderr)")
        #expect(!out.stderr.contains("is gone") && !out.stderr.contains("is back"), "\(out.stderr)")
    }
}
