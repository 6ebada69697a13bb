import Foundation
import JackwaveTestSupport
import Testing

/// Retention's worst faults while a station logger records: a manifest that cannot be saved,
/// and a folder that cannot be written. Each holds for root too (the tests run as root,
/// where permissions stop nothing): a folder put in the manifest's place, which no `rename`
/// replaces; a folder made immutable (`chattr +i`), where not even root creates or unlinks.
/// Retention fails alone: every deletion made is said, each failure is said (a line and a
/// `retention_failed` event), and the recording is whole, sample-exact.
///
/// On jackd only: retention never touches the server (it runs on the file finisher's thread,
/// on the files), so on PipeWire it would run the very same code; the recording's own path on
/// PipeWire is what the rest of the fault matrix tests there.
@Suite("Retention fails alone", .serialized)
struct RetentionFaultEndToEndTests {
    /// An earlier run's three pieces: m-001.wav to m-003.wav, 0.96 MB in all (1 s, 1 s and
    /// 0.5 s of two float channels).
    func earlierRun(_ dir: String, server: any TestServer) throws {
        let out = try Run.jackwave(["--record", dir + "/m.wav", "-c", "2", "--manual", "--bits", "float", "--split", "1", "-d", "2.5",
                                    "--keep-space", "1G"], server: server.name)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(sounds(dir) == ["m-001.wav", "m-002.wav", "m-003.wav"], "\(sounds(dir))")
    }

    func sounds(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".wav") }.sorted()
    }

    /// 4 s of the test pattern from jackwave's `arguments` (which say where the pieces go);
    /// `fault` once `ready` says the recording is under way. The output, and the source.
    func record(_ arguments: [String], ready: @escaping () -> Bool, server: any TestServer,
                fault: () throws -> Void) throws -> (Run.Output, Run.Running) {
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let run = try Run.start(Run.jackwave, arguments + ["-p", "src:out_*", "-c", "2", "--bits", "float", "-d", "4", "--no-meter"],
                                server: server.name)
        defer { if run.isRunning { run.signal(SIGKILL) } }
        #expect(waitUntil { ready() || !run.isRunning } && run.isRunning, "\(run.stderrSoFar)")
        try fault()
        return (run.finish(timeout: 60), source)
    }

    /// The pieces `paths`, joined, are the 4 s of the pattern, whole.
    func expectWhole(_ paths: [String], _ out: Run.Output, server: any TestServer, source: Run.Running) throws {
        #expect(out.status == 0, "\(out.stderr)")
        let pieces = try paths.map { try Recording($0) }
        let joined = Recording(channels: 2, samples: pieces.flatMap(\.samples))
        #expect(joined.frames == 4 * 48000, "\(joined.frames) frames in \(paths)")
        server.expectPattern(joined, stderr: out.stderr, source: source)
    }

    @Test("a manifest that cannot be saved (a folder put in its place mid-run): each deletion said, the failure said, the recording whole")
    func unsavableManifest() throws {
        let server = try ServerKind.jackd.start()
        let dir = temporaryDirectory()
        try earlierRun(dir, server: server)
        let manifest = dir + "/.jackwave-m.manifest"
        // With a quota of 2 MiB, the earlier pieces no longer fit once the third piece of
        // this run is done, and m-001 goes; at the end m-002 goes. This run's 1.5 MB fit.
        let (out, source) = try record(["--record", dir + "/m.wav", "--split", "1", "--keep-space", "2M", "--events", dir + "/events.jsonl"],
                                       ready: { Recording.framesSoFar(dir + "/m-004.wav") > 12000 }, server: server) {
            #expect(rename(manifest, dir + "/manifest.aside") == 0 && mkdir(manifest, 0o700) == 0)
        }
        try expectWhole((4...7).map { dir + "/m-00\($0).wav" }, out, server: server, source: source)
        for name in ["m-001.wav", "m-002.wav"] {
            #expect(out.stderr.contains("retention: deleted \(name) ("), "\(out.stderr)")
        }
        #expect(sounds(dir) == (3...7).map { "m-00\($0).wav" }, "\(sounds(dir))")
        #expect(out.stderr.contains("retention: the manifest cannot be saved (.jackwave-m.manifest: cannot be written: Is a directory)"),
                "\(out.stderr)")
        let events = try EventStream.read(dir + "/events.jsonl")
        let deleted = events.filter { $0["event"] as? String == "file_deleted" }.compactMap { $0["path"] as? String }
        #expect(deleted == ["m-001.wav", "m-002.wav"], "\(deleted)")
        let failed = events.filter { $0["event"] as? String == "retention_failed" }
        #expect(failed.count == 1 && (failed.first?["reason"] as? String)?.hasSuffix("Is a directory") == true, "\(failed)")
    }

    @Test("a folder that cannot be written (immutable mid-run, root or not): the deletions and the manifest fail, each said, the recording whole",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr")))
    func unwritableFolder() throws {
        let server = try ServerKind.jackd.start()
        let dir = temporaryDirectory()
        try earlierRun(dir, server: server)
        // This run's pieces (and its events) go to a folder of their own, on the wall clock:
        // the folder that holds the earlier pieces and the manifest can become immutable
        // while the recording goes on. It does once the first cut is made: three more pieces
        // end after it, and retention runs at each end.
        let new = dir + "/new"
        try FileManager.default.createDirectory(atPath: new, withIntermediateDirectories: false)
        defer { _ = try? Run.tool("/usr/bin/chattr", ["-i", dir], server: nil) }
        let (out, source) = try record(["--record", dir + "/m.wav", "--split-every", "1s", "--name-pattern", "new/%H%M%S.wav",
                                        "--keep", "1d", "--events", new + "/events.jsonl"],
                                       ready: { self.sounds(new).count >= 2 }, server: server) {
            let made = try Run.tool("/usr/bin/chattr", ["+i", dir], server: nil)
            try #require(made.status == 0, "chattr +i is not supported here: \(made.stderr)")
            // Then m-001 and m-002 turn three days old (m-003 stays new: the wall clock is
            // believed), and --keep 1d wants them gone at the next piece's end.
            let old = Date().addingTimeInterval(-3 * 86400)
            for name in ["m-001.wav", "m-002.wav"] {
                try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: dir + "/" + name)
            }
        }
        _ = try Run.tool("/usr/bin/chattr", ["-i", dir], server: nil)
        try expectWhole(sounds(new).map { new + "/" + $0 }, out, server: server, source: source)
        #expect(!out.stderr.contains("retention: deleted"), "\(out.stderr)")
        for name in ["m-001.wav", "m-002.wav"] {
            #expect(out.stderr.contains("retention: cannot delete \(name) (Operation not permitted); it stays listed"), "\(out.stderr)")
        }
        #expect(sounds(dir) == ["m-001.wav", "m-002.wav", "m-003.wav"], "\(sounds(dir))")
        // Its temporary refused, or (a save under way as the folder turned) its rename.
        let unsaved = out.stderr.split(separator: "\n").filter { $0.contains("retention: the manifest cannot be saved (.jackwave-m.manifest: ") }
        #expect(unsaved.count == 1 && unsaved.first?.contains(": Operation not permitted)") == true, "\(out.stderr)")
        let events = try EventStream.read(new + "/events.jsonl")
        let failed = events.filter { $0["event"] as? String == "retention_failed" }
        #expect(failed.compactMap { $0["path"] as? String } == ["m-001.wav", "m-002.wav"], "\(failed)")
        #expect(failed.filter { $0["path"] == nil }.count == 1, "\(failed)")
        #expect(events.filter { $0["event"] as? String == "file_deleted" }.isEmpty)
    }
}
