import CSndfile
import Foundation
import JackwaveTestSupport
import JackwaveSoundFiles
import Testing

/// Files as users need them, at 48 kHz: another rate (`--rate`), 16/24 bits with dither,
/// every format, split takes, `bext` start times. What the server takes part in (frames
/// fed into every format and across split points, the first frame's time) runs on both
/// jackd and PipeWire; what is the writer's alone (conversion, dither, lossy codecs, gaps)
/// on a `jackd -d dummy`, as the server plays no part in it beyond feeding frames.
@Suite("Files: rates, depths, formats, splits and start times", .serialized)
struct FilesEndToEndTests {
    let dir = temporaryDirectory()

    /// Records jackwave's own tone on one channel on `server` (default: a jackd of its own);
    /// the run must succeed.
    func recordTone(_ path: String, _ arguments: [String], on server: (any TestServer)? = nil) throws -> Run.Output {
        let server = try server ?? ServerKind.jackd.start()
        let run = try Run.jackwave(["--record", path, "--port", "jackwave:out_1", "--channels", "1", "--outputs", "1"] + arguments,
                                   server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        return run
    }

    @Test("--rate writes a tone at the new rate: exact length, frequency within 1e-4, level kept", arguments: [4096, 16000, 44100])
    func rateConversion(rate: Int) throws {
        let path = dir + "/tone-\(rate).wav"
        _ = try recordTone(path, ["--tone", "997", "--duration", "2", "--rate", "\(rate)"])
        let rec = try Recording(path)
        #expect(rec.sampleRate == rate)
        #expect(abs(rec.frames - 2 * rate) <= 1, "\(rec.frames) frames")
        let middle = Array(rec.samples[(rec.frames / 10)..<(rec.frames * 9 / 10)])
        let f = try #require(Signal.frequency(middle, rate: Double(rate)))
        #expect(abs(f - 997) / 997 < 1e-4, "measured \(f) Hz")
        let peak = Double(try #require(middle.map(abs).max(), "\(rec.frames) frames"))
        #expect(abs(20 * log10(peak / 0.1)) < 0.05, "peak \(peak)")  // -20 dBFS, in the pass band
    }

    @Test("a full-scale tone above the new Nyquist frequency does not alias into the file (< -120 dBFS)")
    func noAliasing() throws {
        let path = dir + "/alias.wav"
        // 3000 Hz at 4096 Hz (Nyquist 2048) would fold to 1096 Hz.
        _ = try recordTone(path, ["--tone", "3000", "--volume", "1", "--duration", "1", "--rate", "4096"])
        // Away from the ends: the recording stops abruptly during the tone's fade-out (it
        // hears its own output one period late), and that cut is, rightly, broadband.
        let rec = try Recording(path)
        let peak = Double(try #require(rec.samples[(rec.frames / 10)..<(rec.frames * 9 / 10)].map(abs).max(), "\(rec.frames) frames"))
        #expect(20 * log10(max(peak, 1e-30)) < -120, "peak \(20 * log10(peak)) dBFS")
    }

    @Test("16-bit recordings of silence carry TPDF dither: RMS half an LSB, codes within ±1")
    func ditherPresent() throws {
        let server = try ServerKind.jackd.start()
        let path = dir + "/dither.wav"
        let run = try Run.jackwave(["--record", path, "-c", "1", "--manual", "-d", "0.5", "--bits", "16"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let codes = try Recording(path).samples.map { Double($0) * 32768 }
        let rms = (codes.reduce(0) { $0 + $1 * $1 } / Double(codes.count)).squareRoot()
        #expect(abs(rms - 0.5) < 0.02, "RMS \(rms) LSB")
        #expect(codes.allSatisfy { abs($0) <= 1 })
    }

    @Test("--no-dither keeps digital silence exactly zero")
    func silenceWithoutDither() throws {
        let server = try ServerKind.jackd.start()
        let path = dir + "/nodither.wav"
        let run = try Run.jackwave(["--record", path, "-c", "1", "--manual", "-d", "0.5", "--bits", "16", "--no-dither"],
                                   server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Recording(path).samples.allSatisfy { $0 == 0 })
    }

    @Test("--no-dither: a quiet tone's error is pure rounding, at most half an LSB")
    func roundingWithoutDither() throws {
        let path = dir + "/quiet.wav"
        _ = try recordTone(path, ["--tone", "997", "--volume", "-60dB", "--duration", "1", "--bits", "16", "--no-dither"])
        let rec = try Recording(path)
        // The tone is exactly Float(0.001 · sin(2π · 997 · (n - d) / 48000)) for the latency d
        // of jackwave hearing its own output: find d, then compare every sample.
        let amplitude = Double(Float(0.001))
        func ideal(_ n: Int, _ d: Int) -> Double { Double(Float(amplitude * sin(2 * Double.pi * 997 * Double(n - d) / 48000))) }
        let window = 4800..<43200
        try #require(rec.samples.count >= window.upperBound, "\(rec.frames) frames")
        let d = try #require((0..<4800).min { a, b in
            (0..<64).map { abs(Double(rec.samples[4800 + $0]) - ideal(4800 + $0, a)) }.max()!
                < (0..<64).map { abs(Double(rec.samples[4800 + $0]) - ideal(4800 + $0, b)) }.max()!
        })
        let errors = window.map { (Double(rec.samples[$0]) - ideal($0, d)) * 32768 }
        let worst = errors.map(abs).max()!
        #expect(worst <= 0.5 + 1e-5, "worst error \(worst) LSB (latency \(d) frames)")
        #expect(window.allSatisfy { Double(rec.samples[$0]) * 32768 == (Double(rec.samples[$0]) * 32768).rounded() })
    }

    /// name, file extension, extra options, expected libsndfile container.
    static let formats: [(String, String, [String], Int32)] = [
        ("wav", "wav", [], SF_FORMAT_WAVEX),
        ("wav 16-bit", "wav", ["--bits", "16", "--no-dither"], SF_FORMAT_WAVEX),
        ("wavex", "wav", ["--format", "wavex"], SF_FORMAT_WAVEX),
        ("rf64", "rf64", [], SF_FORMAT_RF64),
        ("w64", "w64", ["--bits", "32"], SF_FORMAT_W64),
        ("flac", "flac", ["--no-dither"], SF_FORMAT_FLAC),
        ("caf", "caf", ["--bits", "24", "--no-dither"], SF_FORMAT_CAF),
        ("aiff", "aiff", [], SF_FORMAT_AIFF),
    ].map { ($0.0, $0.1, $0.2, Int32($0.3)) }

    @Test("every lossless format round-trips through libsndfile sample for sample", arguments: ServerKind.allCases)
    func formatsRoundTrip(on kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        for (name, ext, options, container) in Self.formats {
            let path = dir + "/round-trip-\(name.replacingOccurrences(of: " ", with: "-")).\(ext)"
            let run = try Run.jackwave(["--record", path, "-p", "src:out_*", "-d", "0.25"] + options, server: server.name)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            let rec = try Recording(path)
            #expect(try SoundFile(readingFrom: path).format & Int32(SF_FORMAT_TYPEMASK) == container, "\(name)")
            #expect(rec.channels == 2 && rec.frames == 12000, "\(name): \(rec.channels) channels, \(rec.frames) frames")
            // Frame by frame, unless PipeWire skipped a cycle and said so (`ServerBreaks`).
            server.expectPattern(rec, stderr: run.stderr, source: source)
        }
    }

    /// Longer than the writer's header refresh period (0.5 s), which once broke Ogg Vorbis.
    @Test("Ogg Vorbis and Opus files read back whole, with a tone's frequency and level", arguments: ["ogg", "opus"])
    func lossyRoundTrip(ext: String) throws {
        let path = dir + "/lossy.\(ext)"
        _ = try recordTone(path, ["--tone", "997", "-d", "1.2"])
        let rec = try Recording(path)
        #expect(rec.frames == 57600)
        try #require(rec.samples.count >= 52800, "\(rec.frames) frames")
        let middle = Array(rec.samples[4800..<52800])
        let f = try #require(Signal.frequency(middle, rate: 48000))
        #expect(abs(f - 997) / 997 < 1e-3, "\(f) Hz")
        let rms = (middle.reduce(0) { $0 + Double($1) * Double($1) } / Double(middle.count)).squareRoot()
        #expect(abs(20 * log10(rms / (0.1 / 2.0.squareRoot()))) < 0.5, "RMS \(rms)")
    }

    @Test("a rerun of a split recording numbers on after the pieces that exist and never touches them, with or without --force",
          arguments: [[], ["--force"]])
    func rerunNumbersOn(force: [String]) throws {
        let path = dir + "/again\(force.count).wav"
        let naming = FileNaming(base: path, scheme: .pieces)
        for piece in [1, 2] { try Data("earlier".utf8).write(to: URL(fileURLWithPath: naming.path(take: 0, piece: piece))) }
        let run = try recordTone(path, ["--tone", "997", "--duration", "1.5", "--split", "1"] + force)
        #expect(run.stderr.contains("again\(force.count)-003.wav … \(dir)/again\(force.count)-004.wav (2 files)"), "\(run.stderr)")
        for piece in [1, 2] { #expect(try String(contentsOfFile: naming.path(take: 0, piece: piece), encoding: .utf8) == "earlier") }
        #expect(try [3, 4].map { try Recording(naming.path(take: 0, piece: $0)).frames } == [48000, 24000])
    }

    @Test("--split pieces concatenate to the uninterrupted pattern, each exactly round(N × rate) frames", arguments: ServerKind.allCases)
    func splitIsSampleExact(on kind: ServerKind) throws {
        let server = try kind.start()
        let source = try server.startTestSource(channels: 2)
        defer { source.signal(SIGTERM); _ = source.finish() }
        let path = dir + "/take.wav"
        let run = try Run.jackwave(["--record", path, "-p", "src:out_*", "-d", "3.1", "--split", "1"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let pieces = try (1...4).map { try Recording(FileNaming(base: path, scheme: .pieces).path(take: 0, piece: $0)) }
        #expect(pieces.map(\.frames) == [48000, 48000, 48000, 4800])
        #expect(!FileManager.default.fileExists(atPath: FileNaming(base: path, scheme: .pieces).path(take: 0, piece: 5)))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(run.stderr.contains("take-001.wav … \(dir)/take-004.wav (4 files): 3.100 s, 148800 frames"), "\(run.stderr)")
        // Frame by frame across the cuts, the pieces end to end; on PipeWire allowing only for
        // what the server did to the stream itself (`ServerBreaks`).
        let joined = Recording(channels: 2, samples: pieces.flatMap(\.samples))
        server.expectPattern(joined, stderr: run.stderr, source: source)
    }

    @Test("--split with --rate cuts at exact frame counts of the new rate, and the tone runs on across the cuts")
    func splitWithRate() throws {
        let path = dir + "/rated.flac"
        _ = try recordTone(path, ["--tone", "997", "-d", "2.2", "--rate", "16000", "--split", "1", "--bits", "24"])
        let pieces = try (1...3).map { try Recording(FileNaming(base: path, scheme: .pieces).path(take: 0, piece: $0)) }
        #expect(pieces.map(\.frames) == [16000, 16000, 3200])
        let joined = pieces.flatMap(\.samples)
        try #require(joined.count >= 33600, "\(joined.count) samples")
        let residual = Signal.sineResidual(Array(joined[1600..<33600]), frequency: 997, rate: 16000)
        let worst = try #require(residual.map(abs).max())
        #expect(worst < 1e-4, "worst residual \(worst)")
    }

    @Test("each split piece's bext time reference continues the previous one's")
    func splitTimeReferences() throws {
        let path = dir + "/timed.wav"
        _ = try recordTone(path, ["--tone", "440", "-d", "2.2", "--rate", "8000", "--split", "1"])
        let refs = try (1...3).map { try #require(SoundFile(readingFrom: FileNaming(base: path, scheme: .pieces).path(take: 0, piece: $0)).broadcastInfo).timeReference }
        #expect(refs[1] == refs[0] + 8000 && refs[2] == refs[1] + 8000, "\(refs)")
    }

    @Test("a WAV file's bext chunk says jackwave and when the first frame was, as date, time and frames since midnight", arguments: ServerKind.allCases)
    func broadcastInfo(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/bext.wav"
        let before = WallClockTime.now()
        let run = try Run.jackwave(["--record", path, "-c", "1", "--manual", "-d", "0.5", "--rate", "16000"], server: server.name)
        let after = WallClockTime.now()
        #expect(run.status == 0, "\(run.stderr)")
        let info = try #require(try SoundFile(readingFrom: path).broadcastInfo)
        #expect(info.originator == "jackwave")
        // The first frame came after the test started jackwave and at least the recording's
        // 0.5 s before it returned (10 ms for the clocks' rounding).
        let midnight = WallClockTime(seconds: before.seconds - Int(before.secondsSinceLocalMidnight.rounded(.down)), nanoseconds: 0)
        func absolute(_ t: WallClockTime) -> Double { Double(t.seconds) + Double(t.nanoseconds) / 1e9 }
        let firstFrame = Double(midnight.seconds) + Double(info.timeReference) / 16000
        #expect(firstFrame >= absolute(before) - 0.01 && firstFrame <= absolute(after) - 0.5 + 0.01,
                "first frame at \(firstFrame), run from \(absolute(before)) to \(absolute(after))")
        // Date and time are those of local midnight plus the time reference.
        let first = midnight.adding(frames: Int64(info.timeReference), sampleRate: 16000)
        #expect(info.originationDate == first.localDate && info.originationTime == first.localTime,
                "\(info.originationDate) \(info.originationTime) vs \(first.iso8601)")
    }

    @Test("--print-start prints the first frame's time in ISO 8601 with milliseconds, the same the bext chunk holds", arguments: ServerKind.allCases)
    func printStart(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/printed.wav"
        let run = try Run.jackwave(["--record", path, "-c", "1", "--manual", "-d", "0.3", "--print-start"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.stderr.split(separator: "\n").first { $0.hasPrefix("jackwave: first frame at ") })
        let iso = String(line.dropFirst("jackwave: first frame at ".count))
        #expect(iso.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$"#, options: .regularExpression) != nil, "\(iso)")
        let info = try #require(try SoundFile(readingFrom: path).broadcastInfo)
        // Nothing connected (--manual): no latency is known, and the description says so.
        #expect(info.description == "jackwave: first frame at \(iso); capture latency unknown: no input connected at the start")
        #expect(iso.hasPrefix(info.originationDate + "T" + info.originationTime))
    }

    @Test("with --rate, gaps from a stalled writer are silence at their true place; the tone resumes in phase")
    func gapsStayInPlace() throws {
        let server = try ServerKind.jackd.start()
        let path = dir + "/gaps.wav"
        let run = try Run.jackwave(["--record", path, "--port", "jackwave:out_1", "-c", "1", "--outputs", "1", "--tone", "997",
                                    "-d", "2", "--rate", "16000", "--buffer", "0.05"],
                                   server: server.name, environment: ["JACKWAVE_TEST_WRITER_STALL_US": "300000"])
        #expect(run.status == 0, "\(run.stderr)")
        let rec = try Recording(path)
        #expect(rec.frames == 32000)
        // "N frames dropped at S s": the gaps, at the server's 48 kHz.
        let gaps: [(start: Int, end: Int)] = run.stderr.split(separator: "\n").compactMap { line in
            guard let r = line.range(of: " frames dropped at ") else { return nil }
            let count = Int(line[..<r.lowerBound].split(separator: " ").last ?? "") ?? 0
            let at = Double(line[r.upperBound...].split(separator: " ").first ?? "") ?? 0
            guard let start = Int(exactly: (at * 16000).rounded()) else { return nil }
            return (start, start + count / 3)
        }
        #expect(!gaps.isEmpty, "\(run.stderr)")
        let margin = 64  // 4 ms: the converter's filter rings for less than that
        for gap in gaps where gap.start >= 0 && min(gap.end, rec.frames) - gap.start > 2 * margin {
            let inside = rec.samples[(gap.start + margin)..<(min(gap.end, rec.frames) - margin)]
            #expect(inside.allSatisfy { abs($0) < 1e-4 }, "gap \(gap) is not silent")
        }
        var kept: [(index: Int, value: Float)] = []
        try #require(rec.frames >= 1600, "\(rec.frames) frames")
        for i in 800..<(rec.frames - 800) where !gaps.contains(where: { i >= $0.start - margin && i < $0.end + margin }) {
            kept.append((i, rec.samples[i]))
        }
        let residual = Signal.sineResidual(kept, frequency: 997, rate: 16000)
        let worst = try #require(residual.map(abs).max(), "no sample outside the gaps")
        #expect(worst < 1e-3, "the tone is off its timeline by \(worst)")
    }

    @Test("plot and levels read a --rate 4096 recording like any other")
    func plotAndLevelsRead() throws {
        let path = dir + "/analysis.wav"
        _ = try recordTone(path, ["--tone", "500", "-d", "1", "--rate", "4096"])
        let levels = try Run.jackwave(["levels", path, "--block", "1024"], server: nil)
        #expect(levels.status == 0, "\(levels.stderr)")
        #expect(levels.stdout.split(separator: "\n").count == 5)  // header and 4 blocks of 1024 frames
        #expect(levels.stdout.contains("\n3072,0.750000000,"))
        let plot = try Run.jackwave(["plot", path, "-o", dir + "/analysis.png"], server: nil)
        #expect(plot.status == 0, "\(plot.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/analysis.png"))
    }
}

/// File-option refusals, which happen before jackwave looks for a server.
@Suite("Files: refusals before anything is touched")
struct FileRefusalEndToEndTests {
    @Test("bad file options exit 2 with one line and create nothing", arguments: [
        ["--rate", "999"], ["--rate", "44.1"], ["--format", "aac"], ["--split", "0"], ["--bits", "float", "--format", "flac"],
    ])
    func badOptions(options: [String]) throws {
        let dir = temporaryDirectory()
        let run = try Run.jackwave(["--record", dir + "/x.flac"] + options, server: "jw-no-such-server-\(getpid())")
        #expect(run.status == 2)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test("--formats lists the formats this machine writes, one per line, and exits 0")
    func formatList() throws {
        let run = try Run.jackwave(["--formats"], server: nil)
        #expect(run.status == 0)
        let names = run.stdout.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(names == ["wav", "wavex", "rf64", "w64", "flac", "ogg", "opus", "mp3", "caf", "aiff"], "\(run.stdout)")
    }
}
