import Foundation
import JackwaveDSP
import Testing

/// `jackwave --tone` through a real JACK server, recorded by another client and by itself.
@Suite("Tones through a real JACK server", .serialized)
struct ToneEndToEndTests {
    let server: JackServer
    let dir = temporaryDirectory()

    init() throws { server = try JackServer() }

    /// Records `jackwave` tone arguments with `jack_capture` (a Debian peer) for `seconds`.
    func captureTone(_ toneArguments: [String], seconds: Int) throws -> (Recording, Run.Output) {
        let path = dir + "/captured-\(UUID().uuidString).wav"
        let capture = try Run.start("/usr/bin/jack_capture", ["-mc", "-c", "1", "-d", "\(seconds)", "-ns", "-f", "wav", path],
                                    server: server.name)
        let deadline = Date().addingTimeInterval(10)
        while try !Run.tool("/usr/bin/jack_lsp", [], server: server.name).stdout.contains("jack_capture:input1") {
            guard Date() < deadline else { throw TestFailure("jack_capture did not start") }
            usleep(50_000)
        }
        let tone = try Run.jackwave(toneArguments + ["--outputs", "1", "-t", "jack_capture:input1", "--no-meter"],
                                    server: server.name)
        _ = capture.finish(timeout: Double(seconds) + 10)
        return (try Recording(path), tone)
    }

    /// Frequency from linearly interpolated rising zero crossings over `range`.
    func zeroCrossingFrequency(_ x: [Float], _ range: Range<Int>, sampleRate: Double) -> Double {
        var crossings: [Double] = []
        for i in range.dropFirst() where x[i - 1] < 0 && x[i] >= 0 {
            crossings.append(Double(i - 1) + Double(-x[i - 1]) / Double(x[i] - x[i - 1]))
        }
        return Double(crossings.count - 1) * sampleRate / (crossings.last! - crossings.first!)
    }

    @Test("a tone recorded by jack_capture has the asked frequency and peak level")
    func frequencyAndLevel() throws {
        let (rec, run) = try captureTone(["--tone", "997.5", "--volume", "0.5", "-d", "3"], seconds: 5)
        #expect(run.status == 0, "\(run.stderr)")
        let first = try #require(rec.samples.firstIndex { $0 != 0 })
        let steady = (first + 4800)..<(first + 4800 + 96000)
        let f = zeroCrossingFrequency(rec.samples, steady, sampleRate: 48000)
        #expect(abs(f - 997.5) / 997.5 < 1e-6, "measured \(f) Hz")
        let peak = rec.samples[steady].map(abs).max()!
        #expect(abs(peak - 0.5) < 1e-4)
    }

    @Test("the first sample a listener gets is the start of the fade-in, and it rises without a step")
    func fadeIn() throws {
        let (rec, run) = try captureTone(["--tone", "440", "--volume", "-6dB", "--fade", "20", "-d", "1"], seconds: 3)
        #expect(run.status == 0, "\(run.stderr)")
        let first = try #require(rec.samples.firstIndex { $0 != 0 })
        // sin(0) · envelope(0) = 0, so the sample before the first nonzero one is the start.
        let largestSteadyStep = Float(2 * Double.pi * 440 / 48000) * 0.5012
        for i in (first - 1)..<(first + 960) {
            #expect(abs(rec.samples[i + 1] - rec.samples[i]) <= largestSteadyStep * 1.01)
        }
        #expect(abs(rec.samples[first - 1]) == 0)
    }

    @Test("with --duration the fade-out ends exactly at the duration and silence follows")
    func exactEnd() throws {
        let (rec, run) = try captureTone(["--tone", "1000", "-d", "2"], seconds: 4)
        #expect(run.status == 0, "\(run.stderr)")
        let first = try #require(rec.samples.firstIndex { $0 != 0 })
        let last = try #require(rec.samples.lastIndex { $0 != 0 })
        // The tone's frame 0 is the zero sample just before `first`; frame 96000 is silent.
        #expect(last - (first - 1) < 96000)
        #expect(last - (first - 1) > 96000 - 10)
        #expect(rec.samples[(last + 1)...].allSatisfy { $0 == 0 })
    }

    @Test("jackwave records its own tone one period late, sample for sample as the generator makes it")
    func selfRecording() throws {
        let path = dir + "/loop.wav"
        let run = try Run.jackwave(["--tone", "440", "--record", path, "--port", "jackwave:out_1", "--channels", "1",
                                    "--duration", "2", "--no-meter"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let rec = try Recording(path)
        #expect(rec.frames == 96000)
        var generator = ToneGenerator(sampleRate: 48000, frequency: 440, amplitude: 0.1, fadeFrames: 960)
        generator.stop(endingAtFrame: 96000)
        var expected = [Float](repeating: 0, count: 96000)
        expected.withUnsafeMutableBufferPointer { generator.process(into: $0.baseAddress!, count: 96000) }
        let delay = server.period  // JACK delivers a client's own output to its input a period later.
        #expect(rec.samples[0..<delay].allSatisfy { $0 == 0 })
        #expect(Array(rec.samples[delay...]) == Array(expected[0..<(96000 - delay)]))
    }

    @Test("Ctrl-C fades the tone out before jackwave exits")
    func interruptFadesOut() throws {
        let path = dir + "/interrupted-tone.wav"
        let run = try Run.start(Run.jackwave, ["--tone", "440", "--record", path, "--port", "jackwave:out_1",
                                               "--channels", "1", "--fade", "50", "--no-meter"], server: server.name)
        #expect(run.waitForStderr("connected jackwave:out_1 -> jackwave:in_1"))
        usleep(800_000)
        run.signal(SIGINT)
        let out = run.finish(timeout: 10)
        #expect(out.status == 0, "\(out.stderr)")
        let rec = try Recording(path)
        let last = try #require(rec.samples.lastIndex { $0 != 0 })
        // The last 50 ms before silence are a fade: the final cycle's peak is far below the tone's.
        let finalCycle = rec.samples[(last - 100)...last].map(abs).max()!
        #expect(finalCycle < 0.01, "final cycle peak \(finalCycle)")
        #expect(rec.samples[max(0, last - 4800)..<(last - 2400)].map(abs).max()! > 0.05)
    }
}
