import Foundation
import JackwaveHost
import Testing

/// Declared latency: the test source's `--latency N` states a capture latency through a
/// latency callback, as a sound card or a network link would; jackwave's `LatencyWatch`
/// reads what arrives at its inputs.
@Suite("Declared capture latency", .serialized)
struct LatencyEndToEndTests {
    /// `jack_lsp -l PORT`'s capture latency range, or nil.
    static func captureLatency(of port: String, on server: any TestServer) throws -> LatencyRange? {
        let out = try Run.tool("/usr/bin/jack_lsp", ["-l", port], server: server.name, timeout: 10)
        guard let line = out.stdout.split(separator: "\n").first(where: { $0.contains("port capture latency") }),
              let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]") else { return nil }
        let numbers = line[line.index(after: open)..<close].split(separator: " ").compactMap { Int($0) }
        return numbers.count == 2 ? LatencyRange(min: numbers[0], max: numbers[1]) : nil
    }

    @Test("the test source declares --latency N on its ports, and twice that after SIGUSR1", arguments: ServerKind.allCases)
    func sourceDeclares(kind: ServerKind) throws {
        let server = try kind.start()
        defer { server.stop() }
        let source = try Run.start(Tools.testSource, ["1", "lat", "--latency", "1000"], server: server.name)
        defer { source.signal(SIGTERM); _ = source.finish(timeout: 10) }
        #expect(source.waitForStdout("latency 1000"), "\(source.stdoutSoFar) \(source.stderrSoFar)")
        #expect(waitUntil(timeout: 10) { (try? Self.captureLatency(of: "lat:out_1", on: server)) == LatencyRange(min: 1000, max: 1000) })
        source.signal(SIGUSR1)
        #expect(source.waitForStdout("latency 2000"), "\(source.stdoutSoFar)")
        #expect(waitUntil(timeout: 10) { (try? Self.captureLatency(of: "lat:out_1", on: server)) == LatencyRange(min: 2000, max: 2000) })
    }

    /// jackd only: the watch runs in the test process, whose libjack is jackd's (PipeWire's
    /// is chosen by the library path before a process starts; jackwave's own run reads the
    /// same way once the lead wires it in).
    @Test("LatencyWatch reads an input's capture latency at start, and again after the latency callback when the source changes it")
    func watchFollows() throws {
        let server = try JackServer()
        defer { server.stop() }
        let source = try Run.start(Tools.testSource, ["1", "lat", "--latency", "1000"], server: server.name)
        defer { source.signal(SIGTERM); _ = source.finish(timeout: 10) }
        #expect(source.waitForStdout("latency 1000"))
        let client = try JackClient(name: "watcher", server: server.name)
        let input = try client.registerAudioPort(shortName: "in_1", direction: .input)
        let watch = LatencyWatch(inputs: [input])
        watch.install(on: client)
        try client.activate()
        defer { client.deactivate(); _ = client.close(timeout: 5) }
        #expect(watch.read() == [LatencyRange(min: 0, max: 0)], "nothing connected: nothing declared")
        #expect(client.connect(source: "lat:out_1", destination: "watcher:in_1") == 0)
        #expect(waitUntil(timeout: 10) { watch.readIfChanged() == [LatencyRange(min: 1000, max: 1000)] })
        let callbacks = watch.callbackCount
        source.signal(SIGUSR1)
        #expect(waitUntil(timeout: 10) { watch.readIfChanged() == [LatencyRange(min: 2000, max: 2000)] })
        #expect(watch.callbackCount > callbacks)
    }
}
