import Foundation
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// `--ltc` against a real server and a peer that plays libltc's code (`jackwave-ltcsource`):
/// each file's `bext` TimeReference and `iXML` timestamp must be the code at its first frame,
/// as libltc itself decodes it offline from the file's own channel (the LTC recorded beside
/// being read), within 2 samples, whatever the level, the rate, and 5 frames lost on the way.
/// On jackd only: what is tested is jackwave's reading of its input, not the server's links.
/// The five takes the tests ask about are recorded side by side on one server, in 4 s.
@Suite("Timecode: files stamped from LTC, to the sample", .serialized)
struct TimecodeEndToEndTests {
    /// A recording made once and asked about by several tests.
    struct Setup: Hashable, CustomStringConvertible {
        let fps: String
        let level: Int
        let highpass: Bool
        var jump: String? = nil
        var description: String { "\(fps) fps at \(level) dBFS" + (highpass ? " after a 300 Hz high-pass" : "") + (jump.map { ", jump \($0)" } ?? "") }
        /// The label rate for the truth's closed form (29.97 DF counts in 30s).
        var labelRate: Int { fps == "25" ? 25 : 30 }
    }

    struct Take {
        let pieces: [String]
        let events: [[String: Any]]
        let output: Run.Output
    }

    static let matrix = [Setup(fps: "25", level: -20, highpass: false), Setup(fps: "25", level: -45, highpass: true),
                         Setup(fps: "29.97df", level: -20, highpass: false), Setup(fps: "29.97df", level: -45, highpass: true)]
    static let jumping = Setup(fps: "25", level: -20, highpass: false, jump: "40,10:00:00:00")

    nonisolated(unsafe) static var made: [Setup: Result<Take, TestFailure>] = [:]
    static let lock = NSLock()

    /// The take of `setup`. Every setup's take is recorded at once, on first use, on one
    /// server (a peer and a jackwave each): 3.6 s in pieces of 1.2 s, one input recording the
    /// code that `--ltc` reads, each peer started once its jackwave has, with LTC frames 30 to
    /// 34 muted (in the second piece).
    static func take(_ setup: Setup) throws -> Take {
        lock.lock()
        defer { lock.unlock() }
        if made.isEmpty {
            do { try recordAll(matrix + [jumping]) } catch let failure as TestFailure {
                for s in matrix + [jumping] { made[s] = .failure(failure) }
            } catch {
                for s in matrix + [jumping] { made[s] = .failure(TestFailure("\(error)")) }
            }
        }
        guard let done = made[setup] else { throw TestFailure("\(setup) was not recorded") }
        return try done.get()
    }

    static func recordAll(_ setups: [Setup]) throws {
        let server = try ServerKind.jackd.start()
        var peers: [Run.Running] = []
        defer { for peer in peers { peer.signal(SIGTERM); _ = peer.finish(timeout: 10) } }
        for (i, setup) in setups.enumerated() {
            var arguments = ["ltc\(i)", "--fps", setup.fps, "--start", "01:00:00:00",
                             "--level", "\(setup.level)", "--mute", "30,34", "--seconds", "20", "--wait"]
            if setup.highpass { arguments += ["--highpass", "300"] }
            if let jump = setup.jump { arguments += ["--jump", jump] }
            let peer = try Run.start(Tools.ltcSource, arguments, server: server.name)
            peers.append(peer)
            guard waitUntil(timeout: 30, { peer.stdoutSoFar.contains("ready") || !peer.isRunning }), peer.isRunning else {
                throw TestFailure("the LTC source did not start: \(peer.stderrSoFar)")
            }
        }
        var runs: [(run: Run.Running, dir: String, events: String)] = []
        for i in setups.indices {
            let dir = temporaryDirectory(), events = dir + "/events.jsonl"
            let run = try Run.start(Run.jackwave, ["--record", dir + "/take.wav", "--name", "jw\(i)", "--bits", "float", "-c", "1",
                                                   "-p", "ltc\(i):ltc", "--ltc", "ltc\(i):ltc", "--split", "1.2", "--duration", "3.6",
                                                   "--no-meter", "--events", events, "--project", "Feature", "--scene", "12A",
                                                   "--take", "3", "--tape", "R07", "--note", "boom & <lav>"], server: server.name)
            runs.append((run, dir, events))
        }
        for (i, r) in runs.enumerated() {
            let started = waitUntil(timeout: 30) {
                !r.run.isRunning || ((try? EventStream.read(r.events))?.contains { $0["event"] as? String == "started" } ?? false)
            }
            guard started, r.run.isRunning else {
                for other in runs { other.run.signal(SIGKILL) }
                throw TestFailure("jackwave did not start: \(r.run.finish(timeout: 10).stderr)")
            }
            peers[i].signal(SIGUSR1)
        }
        for (i, r) in runs.enumerated() {
            let output = r.run.finish(timeout: 60)
            let setup = setups[i]
            guard output.status == 0 else { made[setup] = .failure(TestFailure("jackwave exited \(output.status): \(output.stderr)")); continue }
            let pieces = (1...3).map { r.dir + String(format: "/take-%03d.wav", $0) }
            made[setup] = Result { try Take(pieces: pieces, events: EventStream.read(r.events), output: output) }
                .mapError { TestFailure("\(setup): \($0)") }
        }
    }

    /// A piece's truth: libltc's offline decode of its own channel, at its first frame.
    static func truth(_ path: String, _ setup: Setup) throws -> Double {
        let recording = try Recording(path)
        let decoded = LTCTruth(recording, channel: 0)
        return try #require(decoded.samplesAtFirstFrame(fps: setup.labelRate, sampleRate: recording.sampleRate),
                            "\(path): libltc decoded \(decoded.frames.count) frames")
    }

    static func timeReference(_ path: String) throws -> UInt64 {
        try #require(try SoundFile(readingFrom: path).broadcastInfo?.timeReference, "\(path): no bext")
    }

    @Test("each piece's bext TimeReference is the code at its first frame, within 2 samples", arguments: matrix)
    func timeReferenceIsTheCode(_ setup: Setup) throws {
        let take = try Self.take(setup)
        for piece in take.pieces {
            let truth = try Self.truth(piece, setup)
            let stamped = Double(try Self.timeReference(piece))
            #expect(abs(stamped - truth) <= 2, "\(setup): \(piece): bext \(stamped), libltc \(truth)")
        }
    }

    @Test("the iXML timestamp, rate and flag say what the bext says", arguments: matrix)
    func ixmlAgrees(_ setup: Setup) throws {
        let take = try Self.take(setup)
        for piece in take.pieces {
            let fields = try IXMLFields(piece)
            let hi = try #require(UInt64(fields["SPEED/TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_HI"] ?? ""))
            let lo = try #require(UInt64(fields["SPEED/TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_LO"] ?? ""))
            #expect(hi << 32 | lo == (try Self.timeReference(piece)), "\(piece)")
            #expect(fields["SPEED/TIMESTAMP_SAMPLE_RATE"] == "48000")
            #expect(fields["SPEED/TIMECODE_RATE"] == (setup.fps == "25" ? "25/1" : "30000/1001"))
            #expect(fields["SPEED/TIMECODE_FLAG"] == (setup.fps == "25" ? "NDF" : "DF"))
        }
    }

    @Test("each piece starts at the one before's TimeReference plus its frames", arguments: matrix)
    func piecesAreContinuous(_ setup: Setup) throws {
        let take = try Self.take(setup)
        for (a, b) in zip(take.pieces, take.pieces.dropFirst()) {
            let frames = UInt64(try SoundFile(readingFrom: a).frames)
            #expect(try Self.timeReference(b) == (try Self.timeReference(a)) + frames, "\(a) → \(b)")
        }
    }

    @Test("ffprobe and mediainfo read the same TimeReference")
    func peersReadIt() throws {
        let setup = Self.matrix[0]
        let piece = try Self.take(setup).pieces[1]
        let stamped = try Self.timeReference(piece)
        let probe = try Run.tool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format_tags=time_reference", "-of", "default=nw=1:nk=1", piece],
                                 server: nil, timeout: 30)
        #expect(UInt64(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == stamped, "ffprobe: \(probe.stdout) \(probe.stderr)")
        // mediainfo gives the time reference as the delay, in seconds to the nanosecond.
        let info = try Run.tool("/usr/bin/mediainfo", ["--Inform=Audio;%Delay%", piece], server: nil, timeout: 30)
        let milliseconds = try #require(Double(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "mediainfo: \(info.stdout)")
        #expect(abs(milliseconds * 48 - Double(stamped)) < 1, "mediainfo \(milliseconds) ms, bext \(stamped)")
    }

    @Test("the production fields, the track's source and the files' identifiers are in every piece's iXML")
    func productionFields() throws {
        let take = try Self.take(Self.matrix[0])
        let all = try take.pieces.map { try IXMLFields($0) }
        for fields in all {
            #expect(fields["PROJECT"] == "Feature" && fields["SCENE"] == "12A" && fields["TAKE"] == "3" && fields["TAPE"] == "R07")
            #expect(fields["NOTE"] == "boom & <lav>")
            #expect(fields.values["TRACK_LIST/TRACK/NAME"] == ["ltc0:ltc"], "the first setup's source")
        }
        #expect(Set(all.compactMap { $0["FILE_UID"] }).count == 3, "one FILE_UID per file")
        #expect(Set(all.compactMap { $0["FILE_SET/FAMILY_UID"] }).count == 1, "one FAMILY_UID for the take's pieces")
        #expect(all.map { $0["FILE_SET/FILE_SET_INDEX"] } == ["1", "2", "3"])
    }

    @Test("the events and the summary give each file's timecode at its start and its end, each piece's start the last one's end")
    func told() throws {
        let take = try Self.take(Self.matrix[0])
        let closed = take.events.filter { $0["event"] as? String == "file_closed" }
        let starts = closed.compactMap { $0["start_timecode"] as? String }, ends = closed.compactMap { $0["end_timecode"] as? String }
        try #require(starts.count == 3 && ends.count == 3, "\(closed)")
        #expect(Array(starts.dropFirst()) == Array(ends.dropLast()), "starts \(starts), ends \(ends)")
        let opened = take.events.filter { $0["event"] as? String == "file_opened" }.compactMap { $0["timecode"] as? String }
        #expect(opened == starts)
        #expect(take.events.contains { $0["event"] as? String == "timecode_locked" })
        #expect(!take.events.contains { $0["event"] as? String == "timecode_jump" }, "5 frames lost are carried over, not a jump")
        #expect(take.output.stderr.contains("timecode: the files run from \(starts[0]) to \(ends[2])"), "\(take.output.stderr)")
    }

    @Test("a jump in the code is an event and a line, marks the piece that spans it, and the next piece takes the new code")
    func jump() throws {
        let setup = Self.jumping
        let take = try Self.take(setup)
        let jumps = take.events.filter { $0["event"] as? String == "timecode_jump" }
        #expect(jumps.count == 1 && (jumps.first?["to"] as? String)?.hasPrefix("10:00:00:0") == true, "\(jumps)")
        #expect(take.output.stderr.contains("timecode: jumped from 01:00:0"), "\(take.output.stderr)")
        let spanning = take.events.filter { $0["event"] as? String == "file_closed" && $0["timecode_jumped"] as? Bool == true }
        #expect(spanning.count == 1, "\(take.events.filter { $0["event"] as? String == "file_closed" })")
        let marked = try take.pieces.map { try SoundFile(readingFrom: $0).cues.count }
        #expect(marked.reduce(0, +) == 1, "cue points per piece: \(marked)")
        let last = try #require(take.pieces.last)
        let truth = try Self.truth(last, setup)
        #expect(truth > 10 * 3600 * 48000, "the last piece's code is the new one: \(truth)")
        #expect(abs(Double(try Self.timeReference(last)) - truth) <= 2)
    }

    @Test("a take's name pattern names the file as field recorders do, and its iXML carries the scene and take")
    func takeNames() throws {
        let server = try ServerKind.jackd.start()
        let dir = temporaryDirectory()
        let out = try Run.jackwave(["--record", dir + "/take.wav", "--name-pattern", "%S_%T.wav", "--scene", "12A", "--take", "3",
                                    "-c", "1", "-d", "0.5", "--no-meter"], server: server.name)
        #expect(out.status == 0, "\(out.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dir)) == ["12A_T003.wav"])
        let fields = try IXMLFields(dir + "/12A_T003.wav")
        #expect(fields["SCENE"] == "12A" && fields["TAKE"] == "3")
    }

    @Test("--ltc into a format without bext or iXML is refused, and no file is made")
    func refusedFormat() throws {
        let dir = temporaryDirectory()
        let out = try Run.jackwave(["--record", dir + "/take.flac", "--ltc", "x:y", "-d", "1"], server: nil)
        #expect(out.status == 2 && out.stderr.contains("--ltc would have no effect"), "\(out.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dir))?.isEmpty ?? true)
    }
}
