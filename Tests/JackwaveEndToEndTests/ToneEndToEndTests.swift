import Foundation
import JackwaveTestSupport
import JackwaveDSP
import Testing

/// `jackwave --tone` through real servers, jackd and PipeWire (each test on both),
/// recorded by another client and by itself. On PipeWire the peer, `jack_capture`, runs
/// on PipeWire's libjack as every client of the fixture does (as `pw-jack` runs it).
@Suite("Tones through a real JACK server", .serialized)
struct ToneEndToEndTests {
    let dir = temporaryDirectory()

    /// Records `jackwave` tone arguments with `jack_capture` (a Debian peer): the capture
    /// runs from before jackwave starts until at least `tailFrames` more frames have passed
    /// through the server after it ended (SIGINT then), however long a loaded machine takes
    /// to start any of them.
    func captureTone(_ toneArguments: [String], on server: any TestServer) throws -> (Recording, Run.Output) {
        let path = dir + "/captured-\(UUID().uuidString).wav"
        let capture = try Run.start("/usr/bin/jack_capture", ["-mc", "-c", "1", "-ns", "-f", "wav", path],
                                    server: server.name)
        // Not its port: jack_capture registers it before its callback starts keeping what
        // arrives, and says "Recording to" only once it does.
        guard capture.waitForStderr("Recording to", timeout: 30) else {
            capture.signal(SIGKILL)
            throw TestFailure("jack_capture did not start: \(capture.finish(timeout: 5).stderr)")
        }
        let tone = try Run.jackwave(toneArguments + ["--outputs", "1", "-t", "jack_capture:input1", "--no-meter"],
                                    server: server.name)
        // A cycle counter, not a sleep: a recording of `tailFrames` frames, made after the
        // tone's last cycle, ends only once the server has run that many more frames, and
        // jack_capture, in the same graph, has heard every one of them.
        let tail = try Run.jackwave(["--record", dir + "/tail-\(UUID().uuidString).wav", "--manual", "-c", "1",
                                     "-d", "\(Double(Self.tailFrames) / 48000)"], server: server.name)
        #expect(tail.status == 0, "\(tail.stderr)")
        capture.signal(SIGINT)
        let captured = capture.finish(timeout: 30)
        // For a failure's diagnosis: what the peer said of xruns and overruns, if anything.
        let said = (captured.stdout + captured.stderr).split(whereSeparator: \.isNewline)
            .filter { $0.contains("x-runs") || $0.contains("overruns") }
        if !said.isEmpty { print("jack_capture: \(said.joined(separator: " / ")); jackwave: \(tone.stderr)") }
        #expect(tone.stderr.contains("connected jackwave:out_1 -> jack_capture:input1"), "\(tone.stderr)")
        return (try Recording(path), tone)
    }

    /// Frames the capture runs on after the tone: twice the 0.1 s `expectWholeTone` needs.
    static let tailFrames = 9600

    /// How many whole server cycles of the tone the capture lacks or has as silence, if that
    /// is all that keeps it from being `tone`: every nonzero sample of `rec` is the
    /// generator's, in order, from some point of the fade-in to the tone's last sample,
    /// jumping only by whole `quantum`-frame cycles (at most 16 at a time), with at most
    /// whole cycles of silence between. nil if anything else differs.
    ///
    /// PipeWire under load skips a late client's cycle instead of waiting for it (see
    /// `ServerBreaks`): when it skips jack_capture's, the capture lacks that cycle of the
    /// tone; when it runs jack_capture without jackwave's output of a cycle, the capture holds
    /// a cycle of silence there. jack_capture says neither. This tells those cases apart from
    /// a wrong sample, which the strict checks then report.
    static func missingCycles(in samples: [Float], of tone: [Float], quantum: Int) -> Int? {
        guard let first = samples.firstIndex(where: { $0 != 0 }), let last = samples.lastIndex(where: { $0 != 0 }),
              let lead = tone.firstIndex(where: { $0 != 0 }), let toneLast = tone.lastIndex(where: { $0 != 0 }) else { return nil }
        // Where in the tone the capture starts: the fade-in, or whole cycles into it.
        guard var p = (lead..<min(tone.count, lead + 16 * quantum)).first(where: { tone[$0] == samples[first] })
        else { return nil }
        var missing = (p - lead + quantum - 1) / quantum
        var i = first + 1
        while i <= last {
            if p + 1 < tone.count, samples[i] == tone[p + 1] {
                p += 1
                i += 1
            } else if let jump = (1...16).first(where: { p + 1 + $0 * quantum < tone.count && samples[i] == tone[p + 1 + $0 * quantum] }) {
                p += 1 + jump * quantum
                missing += jump
                i += 1
            } else if i + quantum <= last, samples[i..<(i + quantum)].allSatisfy({ $0 == 0 }) {
                // A whole cycle of silence where the tone was: the tone goes on after it,
                // from where it was or whole cycles later (the next turn tells which).
                missing += 1
                i += quantum
            } else {
                return nil
            }
        }
        return p == toneLast ? missing : nil
    }

    /// On PipeWire, true (and says so) if PipeWire skipped a cycle of either client: of
    /// jackwave (it says so in `toneStderr`, `ServerBreaks`), or of jack_capture (the capture
    /// lacks whole cycles and is otherwise the generator's `tone`, `missingCycles`). The
    /// test's exact checks cannot hold then, and the server, not jackwave, broke them.
    static func pipeWireSkippedListener(_ rec: Recording, tone: [Float], toneStderr: String, server: any TestServer) -> Bool {
        guard server.kind == .pipewire else { return false }
        if server.brokeStream(stderr: toneStderr) {
            print("PipeWire skipped one of jackwave's cycles: \(toneStderr)")
            return true
        }
        guard let missing = missingCycles(in: rec.samples, of: tone, quantum: server.period), missing > 0 else { return false }
        print("PipeWire skipped \(missing) of jack_capture's cycles; the rest of the capture is the generator's tone, in order")
        return true
    }

    /// What jackwave's generator makes for `--tone frequency` at `amplitude` with a fade of
    /// `fadeFrames`, ended at frame `end` (`--duration`): `count` frames from its frame 0.
    static func generated(frequency: Double, amplitude: Float, fadeFrames: Int = 960, endingAt end: Int,
                          count: Int) -> [Float] {
        var generator = ToneGenerator(sampleRate: 48000, frequency: frequency, amplitude: amplitude, fadeFrames: fadeFrames)
        generator.stop(endingAtFrame: Int64(end))
        var samples = [Float](repeating: 0, count: count)
        samples.withUnsafeMutableBufferPointer { generator.process(into: $0.baseAddress!, count: count) }
        return samples
    }

    /// Checks that a capture holds the whole of `tone` (the generator's output up to its
    /// end) sample for sample, then nothing but silence; returns the capture frame of the
    /// tone's frame 0. The tone is placed by its first nonzero sample (its frame 0 is
    /// sin(0) · envelope(0) = 0), so a tone that reached the listener late, early or
    /// altered in any sample fails.
    @discardableResult
    func expectWholeTone(_ rec: Recording, equals tone: [Float], sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        #expect(rec.channels == 1, sourceLocation: sourceLocation)
        let first = try #require(rec.samples.firstIndex { $0 != 0 }, "the capture is silent", sourceLocation: sourceLocation)
        let lead = try #require(tone.firstIndex { $0 != 0 }, sourceLocation: sourceLocation)
        let start = first - lead
        try #require(start >= 0, sourceLocation: sourceLocation)
        // At least 0.1 s of the capture after the tone, so that "silence follows" is seen.
        try #require(rec.frames >= start + tone.count + 4800,
                     "capture ends at \(rec.frames), tone at \(start + tone.count)", sourceLocation: sourceLocation)
        let captured = Array(rec.samples[start..<(start + tone.count)])
        let mismatch = zip(captured, tone).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(mismatch == nil, "tone frame \(mismatch?.offset ?? -1): captured \(mismatch?.element.0 ?? 0), generated \(mismatch?.element.1 ?? 0)",
                sourceLocation: sourceLocation)
        let loud = rec.samples[(start + tone.count)...].firstIndex { $0 != 0 }
        #expect(loud == nil, "nonzero at tone frame \((loud ?? 0) - start)", sourceLocation: sourceLocation)
        return start
    }

    @Test("PipeWire's allowance takes a capture lacking whole cycles or holding whole cycles of silence, and nothing else")
    func allowanceIsWholeCycles() {
        let tone = Self.generated(frequency: 440, amplitude: 0.5, endingAt: 4800, count: 4800)
        let lead = [Float](repeating: 0, count: 100), q = 256
        let cut = 10 * q + 37   // the capture's cycles start 37 frames into the tone's
        #expect(Self.missingCycles(in: lead + tone, of: tone, quantum: q) == 0)
        // A cycle of the tone missing, one of silence put in, one of silence in its place.
        #expect(Self.missingCycles(in: lead + tone[..<cut] + tone[(cut + q)...], of: tone, quantum: q) == 1)
        #expect(Self.missingCycles(in: lead + tone[..<cut] + [Float](repeating: 0, count: q) + tone[cut...], of: tone, quantum: q) == 1)
        var replaced = lead + tone
        for i in (100 + cut)..<(100 + cut + q) { replaced[i] = 0 }
        #expect(Self.missingCycles(in: replaced, of: tone, quantum: q) == 2)
        // Anything else is not the server's doing.
        var wrong = lead + tone
        wrong[100 + cut] += 1e-6
        #expect(Self.missingCycles(in: wrong, of: tone, quantum: q) == nil)
        #expect(Self.missingCycles(in: lead + tone[..<cut] + [Float](repeating: 0, count: q - 1) + tone[cut...], of: tone, quantum: q) == nil)
        #expect(Self.missingCycles(in: lead + tone[..<cut] + tone[(cut + 100)...], of: tone, quantum: q) == nil)
    }

    @Test("a tone recorded by jack_capture has the asked frequency and peak level", arguments: ServerKind.allCases)
    func frequencyAndLevel(on kind: ServerKind) throws {
        let server = try kind.start()
        let (rec, run) = try captureTone(["--tone", "997.5", "--volume", "0.5", "-d", "3"], on: server)
        #expect(run.status == 0, "\(run.stderr)")
        if Self.pipeWireSkippedListener(rec, tone: Self.generated(frequency: 997.5, amplitude: 0.5, endingAt: 144_000, count: 144_000),
                                        toneStderr: run.stderr, server: server) { return }
        let first = try #require(rec.samples.firstIndex { $0 != 0 })
        let steady = (first + 4800)..<(first + 4800 + 96000)
        try #require(rec.frames >= steady.upperBound, "capture of \(rec.frames) frames")
        let f = try #require(Signal.frequency(Array(rec.samples[steady]), rate: 48000))
        #expect(abs(f - 997.5) / 997.5 < 1e-6, "measured \(f) Hz")
        let peak = try #require(rec.samples[steady].map(abs).max())
        #expect(abs(peak - 0.5) < 1e-4)
    }

    @Test("the first sample a listener gets is the start of the fade-in: the capture equals the generator sample for sample", arguments: ServerKind.allCases)
    func fadeIn(on kind: ServerKind) throws {
        let server = try kind.start()
        let (rec, run) = try captureTone(["--tone", "440", "--volume", "-6dB", "--fade", "20", "-d", "1"], on: server)
        #expect(run.status == 0, "\(run.stderr)")
        // jackwave computes a dB volume in Double and rounds it to Float once.
        let tone = Self.generated(frequency: 440, amplitude: Float(pow(10, -6.0 / 20)), fadeFrames: 960,
                                  endingAt: 48000, count: 48000)
        if Self.pipeWireSkippedListener(rec, tone: tone, toneStderr: run.stderr, server: server) { return }
        let start = try expectWholeTone(rec, equals: tone)
        // And the fade rises without a step: no sample-to-sample change beyond the steady tone's largest.
        let largestSteadyStep = Float(2 * Double.pi * 440 / 48000) * 0.5012
        for i in start..<(start + 960) {
            #expect(abs(rec.samples[i + 1] - rec.samples[i]) <= largestSteadyStep * 1.01)
        }
    }

    @Test("with --duration the fade-out ends exactly at the duration: the capture equals the generator, then silence", arguments: ServerKind.allCases)
    func exactEnd(on kind: ServerKind) throws {
        let server = try kind.start()
        let (rec, run) = try captureTone(["--tone", "1000", "-d", "2"], on: server)
        #expect(run.status == 0, "\(run.stderr)")
        let tone = Self.generated(frequency: 1000, amplitude: 0.1, endingAt: 96000, count: 96000)
        if Self.pipeWireSkippedListener(rec, tone: tone, toneStderr: run.stderr, server: server) { return }
        let start = try expectWholeTone(rec, equals: tone)
        // Sound right up to the duration's last frame (envelope position 1), none from frame 96000 on.
        #expect(rec.samples[start + 95999] != 0)
    }

    @Test("jackwave records its own tone in the cycle it plays it, sample for sample as the generator makes it", arguments: ServerKind.allCases)
    func selfRecording(on kind: ServerKind) throws {
        let server = try kind.start()
        try Self.expectOwnToneRecorded(server: server.name, path: dir + "/loop.wav")
    }

    /// Records 2 s of jackwave's own 440 Hz tone from `jackwave:out_1` on `server` and checks
    /// the file against the generator, from frame 0: the tone is taken inside jackwave, not
    /// from the server (which gives it a period late on jackd, and as silence on PipeWire).
    static func expectOwnToneRecorded(server: String, path: String,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try Run.jackwave(["--tone", "440", "--record", path, "--port", "jackwave:out_1", "--channels", "1",
                                    "--duration", "2", "--no-meter"], server: server)
        #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
        let rec = try Recording(path)
        #expect(rec.frames == 96000, sourceLocation: sourceLocation)
        let expected = generated(frequency: 440, amplitude: 0.1, endingAt: 96000, count: 96000)
        let mismatch = zip(rec.samples, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(mismatch == nil, "first mismatch at frame \(mismatch ?? -1)", sourceLocation: sourceLocation)
        #expect(!run.stderr.contains("received only silence"), "\(run.stderr)", sourceLocation: sourceLocation)
    }

    @Test("Ctrl-C fades the tone out before jackwave exits", arguments: ServerKind.allCases)
    func interruptFadesOut(on kind: ServerKind) throws {
        let server = try kind.start()
        let path = dir + "/interrupted-tone.wav"
        let run = try Run.start(Run.jackwave, ["--tone", "440", "--record", path, "--port", "jackwave:out_1",
                                               "--channels", "1", "--fade", "50", "--no-meter"], server: server.name)
        #expect(run.waitForStderr("connected jackwave:out_1 -> jackwave:in_1"))
        // Half a second of steady tone on disk before the fade, whatever the load.
        #expect(run.waitForRecordedFrames(path, moreThan: 24000), "\(run.stderrSoFar)")
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        let rec = try Recording(path)
        let last = try #require(rec.samples.lastIndex { $0 != 0 })
        try #require(last > 2400, "the last sound is at frame \(last)")
        // The last 50 ms before silence are a fade: the final cycle's peak is far below the tone's.
        let finalCycle = try #require(rec.samples[(last - 100)...last].map(abs).max())
        #expect(finalCycle < 0.01, "final cycle peak \(finalCycle)")
        #expect(try #require(rec.samples[max(0, last - 4800)..<(last - 2400)].map(abs).max()) > 0.05)
    }
}
