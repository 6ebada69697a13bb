import JackwaveEngine
import JackwaveHost
import JackwaveSoundFiles
import Testing

/// What is said of the inputs' capture latency, and what the files' stamp subtracts.
@Suite("Input latencies")
struct InputLatenciesTests {
    static let names = ["in_1", "in_2", "in_3", "in_4"]
    static func latencies(_ ranges: [DeclaredLatency?]) -> InputLatencies {
        InputLatencies(names: Array(names.prefix(ranges.count)), ranges: ranges)
    }
    static let r256 = DeclaredLatency(minimum: 256, maximum: 256)

    @Test("one latency on every input: said once, subtracted in full")
    func same() {
        let l = Self.latencies([Self.r256, Self.r256, Self.r256])
        #expect(l.line(sampleRate: 48000, stamped: false) == "capture latency 256 frames (5.333 ms) on in_1–in_3")
        #expect(l.line(sampleRate: 48000, stamped: true)?.hasSuffix(": subtracted from the files' bext time, which is when their first sample was captured") == true)
        #expect(l.stampFrames == 256 && !l.differ)
        #expect(l.stamp(sampleRate: 48000) == CaptureLatencyStamp(frames: 256, sampleRate: 48000, note: "capture latency 256 frames at 48000 Hz"))
    }

    @Test("inputs that differ are each told; the stamp subtracts the largest and names the others")
    func differ() {
        let l = Self.latencies([Self.r256, DeclaredLatency(minimum: 0, maximum: 0), Self.r256, DeclaredLatency(minimum: 128, maximum: 512)])
        #expect(l.differ && l.stampFrames == 512)
        #expect(l.line(sampleRate: 48000, stamped: true) == "capture latency differs between inputs: 256 frames (5.333 ms) on in_1, in_3, none declared on in_2 (unknown), 128–512 frames (2.667–10.667 ms) on in_4; the files' bext time subtracts the largest, 512 frames (10.667 ms)")
        #expect(l.stamp(sampleRate: 48000).note == "capture latency 512 frames at 48000 Hz, the largest of the inputs': in_1, in_3 256, in_2 0, in_4 128-512")
    }

    @Test("a latency of 0 is unknown, not none: said so, and nothing is subtracted")
    func undeclared() {
        let l = Self.latencies([DeclaredLatency(minimum: 0, maximum: 0), DeclaredLatency(minimum: 0, maximum: 0)])
        #expect(l.line(sampleRate: 48000, stamped: true) == "capture latency of in_1, in_2: none declared upstream, so unknown (a network link that does not declare its own, as zita-n2j, looks like none); nothing is subtracted from the files' bext time")
        #expect(l.stamp(sampleRate: 48000).frames == 0)
    }

    @Test("inputs with nothing connected are left out; with none connected there is no line")
    func unconnected() {
        let l = Self.latencies([nil, Self.r256])
        #expect(l.line(sampleRate: 48000, stamped: false) == "capture latency 256 frames (5.333 ms) on in_2")
        let none = Self.latencies([nil, nil])
        #expect(none.line(sampleRate: 48000, stamped: true) == nil && !none.anyConnected)
        #expect(none.stamp(sampleRate: 48000).frames == 0)
    }

    @Test("a change names the inputs whose range moved, a connection made or broken among them")
    func changes() {
        let before = Self.latencies([Self.r256, nil])
        #expect(Self.latencies([Self.r256, nil]).changedInputs(from: before) == [])
        #expect(Self.latencies([DeclaredLatency(minimum: 512, maximum: 512), Self.r256]).changedInputs(from: before) == [0, 1])
        #expect(Self.latencies([Self.r256, nil]).changedInputs(from: nil) == [0, 1])
    }
}
