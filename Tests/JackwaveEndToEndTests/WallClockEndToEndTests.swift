import Foundation
import JackwaveTestSupport
import Testing

/// Files on the wall clock (`--split-every`) in a real run, under the test clock
/// (`JACKWAVE_TEST_CLOCK`: frame 0's time given, the clock then following the frames; see
/// `RunClock` for why not `faketime`): pieces cut at the boundaries and named by them, joining
/// sample-exact, across DST changes and a step of the clock.
@Suite("Files on the wall clock, end to end", .serialized)
struct WallClockEndToEndTests {
    /// 2025-03-14 13:59:58 UTC.
    static let beforeTwo = 1_741_960_798
    /// Europe/Berlin's 2025 changes (01:00 UTC both).
    static let springForward = 1_743_296_400
    static let fallBack = 1_761_440_400

    /// The sound files under `dir`, sorted by name.
    func names(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".wav") }.sorted()
    }

    /// Each file is the test pattern unbroken, and each begins where the one before ends. A
    /// file longer than `wholeUpTo` frames is checked at its first and last `wholeUpTo / 2`
    /// and by its length (a frame lost or repeated inside would move its end's pattern).
    /// With `run` (a run on `server`, its stderr and its source), the files laid end to end
    /// are checked as `expectPattern` checks one recording: strictly on jackd; on PipeWire
    /// allowing for what the server itself did to the stream (a skipped cycle said, or whole
    /// cycles of silence), which may fall on a cut as well as inside a piece.
    func expectJoined(_ recordings: [Recording], _ names: [String], wholeUpTo: Int = 1_000_000,
                      run: (server: any TestServer, stderr: String, source: Run.Running)? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        if let run {
            for (i, rec) in recordings.enumerated() where rec.frames == 0 {
                Issue.record("\(names.element(at: i) ?? "file \(i + 1)") is empty", sourceLocation: sourceLocation)
            }
            guard let channels = recordings.first?.channels, recordings.allSatisfy({ $0.channels == channels }) else {
                Issue.record("no files, or files of different widths: \(names)", sourceLocation: sourceLocation)
                return
            }
            let whole = Recording(channels: channels, samples: recordings.flatMap(\.samples))
            run.server.expectPattern(whole, stderr: run.stderr, source: run.source, sourceLocation: sourceLocation)
            return
        }
        for (i, rec) in recordings.enumerated() {
            let name = names.element(at: i) ?? "file \(i + 1)"
            guard let first = rec.sample(frame: 0, channel: 0) else {
                Issue.record("\(name) is empty", sourceLocation: sourceLocation)
                continue
            }
            let k0 = TestPattern.phase(of: first)
            let edge = wholeUpTo / 2
            let checked = rec.frames <= wholeUpTo ? Array(0..<rec.frames) : Array(0..<edge) + Array((rec.frames - edge)..<rec.frames)
            let mismatch = checked.first { rec[$0, 0] != TestPattern.value(frame: k0 + $0, channel: 0) }
            #expect(mismatch == nil, "\(name): pattern broken at frame \(mismatch ?? -1)", sourceLocation: sourceLocation)
            guard i > 0 else { continue }
            let a = recordings[i - 1]
            // An empty file joins nothing (nil).
            let joins = rec.sample(frame: 0, channel: 0).flatMap { b in
                a.sample(frame: a.frames - 1, channel: 0).map { TestPattern.phase(of: b) == (TestPattern.phase(of: $0) + 1) % 16384 }
            }
            #expect(joins == true, "\(names.element(at: i - 1) ?? "file \(i)") and \(name) do not join", sourceLocation: sourceLocation)
        }
    }

    @Test("a run across two hour boundaries writes three pieces named by the clock, cut at the boundaries, joining sample-exact")
    func twoHourBoundaries() throws {
        // An hour of audio in 9 s: a 1 kHz dummy server freewheeling, paced by the source at
        // 400 times real time (jackwave's ring holds 600 s of audio: 1.5 s for its writer),
        // then back at real time for the last second or two.
        let server = try ServerKind.jackd.start(sampleRate: 1000, period: 100)
        let source = try server.startArmedSource(["--freewheel", "3603,400"], channels: 1)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let dir = temporaryDirectory()
        let run = try Run.start(Run.jackwave, ["--record", dir + "/air.wav", "-p", "src:out_1", "-c", "1", "--bits", "float", "--no-meter",
                                               "--split-every", "1h", "--buffer", "600", "-d", "3606", "--events", dir + "/air.jsonl",
                                               "--print-start"],
                                server: server.name, environment: ["JACKWAVE_TEST_CLOCK": "\(Self.beforeTwo)"])
        defer { run.signal(SIGKILL) }
        #expect(run.waitForStderr("first frame at"), "\(run.stderrSoFar)")
        source.signal(SIGUSR1)
        #expect(waitUntil(timeout: 60) { source.stdoutSoFar.contains("freewheeled") || !run.isRunning }, "\(run.stderrSoFar)")
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains(" 3606000 frames, 1 channel, 0 xruns, 0 dropped frames"), "\(out.stderr)")
        let list = names(dir)
        #expect(list == ["air-20250314-135958.wav", "air-20250314-140000.wav", "air-20250314-150000.wav"], "\(list)")
        let recordings = try list.map { try Recording(dir + "/" + $0) }
        #expect(recordings.map(\.frames) == [2000, 3_600_000, 4000])
        expectJoined(recordings, list, wholeUpTo: 40000)
        // The events say the same, on the run's timeline.
        let closed = try EventStream.read(dir + "/air.jsonl").filter { $0["event"] as? String == "file_closed" }
        #expect(closed.compactMap { $0["frame"] as? Int } == [2000, 3_602_000, 3_606_000])
    }

    @Test("DST in Europe/Berlin: spring forward cuts at the jump (01:59 CET, then 03:00 CEST); fall back cuts at the second 02:00",
          arguments: ServerKind.allCases, [(springForward, ["0159CET.wav", "0300CEST.wav"]), (fallBack, ["0259CEST.wav", "0200CET.wav"])])
    func daylightSaving(kind: ServerKind, change: (at: Int, names: [String])) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 1)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let dir = temporaryDirectory()
        let out = try Run.jackwave(["--record", dir + "/dst.wav", "-p", "src:out_1", "-c", "1", "--bits", "float", "--no-meter",
                                    "--split-every", "1h", "--name-pattern", "%H%M%Z.wav", "-d", "3"],
                                   server: server.name,
                                   environment: ["JACKWAVE_TEST_CLOCK": "\(change.at - 2)", "TZ": "Europe/Berlin"])
        #expect(out.status == 0, "\(out.stderr)")
        // Sorted by name, the second comes first: check by the time they were written.
        let list = names(dir)
        #expect(Set(list) == Set(change.names), "\(list)")
        let recordings = try change.names.map { try Recording(dir + "/" + $0) }
        #expect(recordings.first?.frames == 96000, "cut at the change, 2 s in")
        expectJoined(recordings, change.names, run: (server, out.stderr, source))
    }

    /// Why a piece's pattern name cannot be had, as the tests make it so.
    enum Unnameable: String, CaseIterable, Sendable {
        case suffixesTaken = "its name and its 999 suffixes taken"
        case folderIsAFile = "a file where its folder should be"
    }

    @Test("a piece whose pattern name cannot be had goes to a fallback name, said, and the recording goes on whole",
          arguments: Unnameable.allCases)
    func unnameablePieceFallsBack(why: Unnameable) throws {
        let server = try ServerKind.jackd.start()
        let source = try server.startTestSource(channels: 1)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let dir = temporaryDirectory()
        let pattern: String, clock: Int, zone: String
        switch why {
        case .suffixesTaken:
            (pattern, clock, zone) = ("%H00.wav", Self.beforeTwo, "UTC")
            for n in 1...999 {
                #expect(FileManager.default.createFile(atPath: dir + (n == 1 ? "/1400.wav" : "/1400_\(n).wav"), contents: nil))
            }
        case .folderIsAFile:
            // The second piece's folder, 14, is a file someone left there.
            (pattern, clock, zone) = ("%H/%H%M.wav", Self.beforeTwo, "UTC")
            #expect(FileManager.default.createFile(atPath: dir + "/14", contents: nil))
        }
        let out = try Run.jackwave(["--record", dir + "/air.wav", "-p", "src:out_1", "-c", "1", "--bits", "float", "--no-meter",
                                    "--split-every", "1h", "--name-pattern", pattern, "-d", "3"],
                                   server: server.name, environment: ["JACKWAVE_TEST_CLOCK": "\(clock)", "TZ": zone])
        #expect(out.status == 0, "\(out.stderr)")
        let fallback = try #require(names(dir).first { $0.hasPrefix("jackwave-") }, "no fallback file: \(out.stderr)")
        #expect(out.stderr.contains(": recording into \(dir)/\(fallback) instead"), "\(out.stderr)")
        // Nothing lost: the first piece's 2 s and the fallback's 1 s, joining.
        let first = why == .folderIsAFile ? "13/1359.wav"
            : try #require(names(dir).first { !$0.hasPrefix("jackwave-") && !$0.hasPrefix("1400") }, "\(names(dir))")
        let recordings = [try Recording(dir + "/" + first), try Recording(dir + "/" + fallback)]
        #expect(recordings.map(\.frames) == [96000, 48000], "\(recordings.map(\.frames))")
        expectJoined(recordings, [first, fallback], run: (server, out.stderr, source))
    }

    @Test("a pattern whose name may grow past NAME_MAX (%Z from CET to CEST) is refused at the start, and nothing is made")
    func patternThatMayGrowTooLongIsRefused() throws {
        let dir = temporaryDirectory()
        // 248 + "CET" + ".wav" is 255 bytes, the most a name may have; "CEST" is one more.
        let pattern = String(repeating: "a", count: 248) + "%Z.wav"
        let out = try Run.jackwave(["--record", dir + "/air.wav", "-c", "1", "--no-meter", "--split-every", "1h",
                                    "--name-pattern", pattern, "-d", "3"], server: nil, environment: ["TZ": "Europe/Berlin"])
        #expect(out.status == 2, "\(out.stderr)")
        #expect(out.stderr.split(separator: "\n").count == 1 && out.stderr.contains("(NAME_MAX)"), "\(out.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dir))?.isEmpty == true)
    }

    @Test("a step of the wall clock is reported, cuts at once, names the next piece by the new time, and loses no frame",
          arguments: ServerKind.allCases)
    func clockStep(kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 1)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let dir = temporaryDirectory()
        // 10:15:00 UTC; from 1.5 s of audio on, the clock reads 90 minutes later.
        let start = Self.beforeTwo - 13_498
        let out = try Run.jackwave(["--record", dir + "/step.wav", "-p", "src:out_1", "-c", "1", "--bits", "float", "--no-meter",
                                    "--split-every", "1h", "--utc", "-d", "4", "--events", dir + "/step.jsonl"],
                                   server: server.name, environment: ["JACKWAVE_TEST_CLOCK": "\(start),+5400@1.5"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("the wall clock stepped +5400.000 s at "), "\(out.stderr)")
        let list = names(dir)
        try #require(list.count == 2, "\(list)")
        let recordings = try list.map { try Recording(dir + "/" + $0) }
        #expect(list[0] == "step-20250314-101500.wav")
        // The second piece is named after the stepped clock's time of its first frame.
        let second = start + 5400 + recordings[0].frames / 48000
        let expected = String(format: "step-20250314-%02d%02d%02d.wav", second / 3600 % 24, second / 60 % 60, second % 60)
        #expect(list[1] == expected)
        #expect(recordings.map(\.frames).reduce(0, +) == 4 * 48000)
        expectJoined(recordings, list, run: (server, out.stderr, source))
        let steps = try EventStream.read(dir + "/step.jsonl").filter { $0["event"] as? String == "clock_step" }
        #expect(steps.count == 1 && steps.first?["seconds"] as? Double == 5400, "\(steps)")
    }
}
