import Foundation
import JackwaveTestSupport
import Testing

/// What every side job's fault case checks, whatever the job (docs/side-jobs.md): the run
/// ends within its bound, with the exit status the docs give; the audio is every frame asked
/// for, sample-exact (the test source's pattern, no frame dropped); the job's failure was
/// said (a line) and, where the events file is not the faulty job, is an event.
///
/// Every JACK client these cases start has a name of its own: libjack makes a client's
/// socket as `/dev/shm/jack_NAME_UID_0`, whatever its server, so two clients of one name
/// opening at once on two servers (suites run side by side, and other test runs on the
/// machine) take each other's socket, and one open fails (status 0x21; jackd's log says
/// "Cannot connect to client name = jackwave").
struct SideJobFault {
    let server: any TestServer
    let source: Run.Running
    let dir: String
    /// This case's names: jackwave's client (`--name`), the test source's, a peer's prefix.
    let tag: String
    var client: String { "jw" + tag }
    var sourceName: String { "src" + tag }
    /// The test source's first port, what the cases record.
    var sourcePort: String { sourceName + ":out_1" }

    /// A server of `kind` and the test source on it, in a fresh folder.
    init(_ kind: ServerKind, channels: Int = 1) throws {
        tag = "\(getpid())x\(UInt32.random(in: 0...UInt32.max))"
        server = try kind.start()
        source = try server.startTestSource(channels: channels, name: "src" + tag)
        dir = temporaryDirectory()
    }

    /// Stops the test source (the server stops with the test).
    func end() {
        source.signal(SIGTERM)
        _ = source.finish(timeout: 10)
    }

    /// jackwave, started with `arguments` and this case's client name (the one way these
    /// cases start it), on this machine or on the jackwave side of `hosts`.
    func start(_ arguments: [String], environment: [String: String] = [:], on hosts: NetworkNamespaces? = nil) throws -> Run.Running {
        let named = ["--name", client] + arguments
        let (program, words) = hosts?.onJackwaveSide(Run.jackwave, named) ?? (Run.jackwave, named)
        return try Run.start(program, words, server: server.name, environment: environment)
    }

    /// Waits for the run to end, at most `bound` seconds (then it is killed, which its
    /// status says: 137); its output.
    func finish(_ run: Run.Running, within bound: Double) -> Run.Output {
        run.finish(timeout: bound)
    }

    /// The recording at `path`, or its pieces (`take-001.wav`, … beside it), joined.
    func audio(_ path: String) throws -> Recording {
        if FileManager.default.fileExists(atPath: path) { return try Recording(path) }
        let pieces = try pieces(path)
        try #require(!pieces.isEmpty, "no recording at \(path), nor pieces of it")
        let read = try pieces.map(Recording.init)
        let channels = read.first?.channels ?? 1
        return Recording(channels: channels, samples: read.flatMap(\.samples))
    }

    /// The pieces of `path` (`take-NNN.wav`), in order.
    func pieces(_ path: String) throws -> [String] {
        let url = URL(fileURLWithPath: path)
        let stem = url.deletingPathExtension().lastPathComponent, ext = url.pathExtension
        let folder = url.deletingLastPathComponent().path
        return try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasPrefix(stem + "-") && $0.hasSuffix("." + ext) }.sorted().map { folder + "/" + $0 }
    }

    /// The audio is whole: `seconds` of it at the server's rate, every frame the source's
    /// pattern in order, none dropped by the writer (the summary's count, 0). Where the
    /// server itself did not run jackwave for some cycles on a loaded machine (jackwave says
    /// so: "the server skipped"), what the server never delivered cannot be the pattern;
    /// the writer's part is still held to every frame it received.
    func expectWholeAudio(_ path: String, seconds: Double, _ out: Run.Output,
                          sourceLocation: SourceLocation = #_sourceLocation) throws {
        let rec = try audio(path)
        #expect(rec.frames == Int(seconds * Double(server.sampleRate)), "\(out.stderr)", sourceLocation: sourceLocation)
        #expect(Self.droppedFrames(out.stderr) == 0, "the writer dropped frames: \(out.stderr)", sourceLocation: sourceLocation)
        if out.stderr.contains("the server skipped") {
            print("the server skipped jackwave for some cycles (said); the pattern is not compared")
            return
        }
        server.expectPattern(rec, stderr: out.stderr, source: source, sourceLocation: sourceLocation)
    }

    /// The `N dropped frames` of the summary line; nil without one.
    static func droppedFrames(_ stderr: String) -> Int? {
        stderr.firstMatch(of: #/, (\d+) dropped frames/#).flatMap { Int($0.1) }
    }

    /// The events at `path` of `kind`.
    static func events(_ path: String, _ kind: String) throws -> [[String: Any]] {
        try EventStream.read(path).filter { $0["event"] as? String == kind }
    }
}
