import Foundation
import JackwaveSoundFiles
import Testing

/// The `bext` time of a file whose inputs declare a capture latency: when its first sample
/// was captured, not when it arrived.
@Suite("bext capture latency")
struct BroadcastLatencyTests {
    let start = WallClockTime(seconds: 1_700_000_000, nanoseconds: 250_000_000)
    let latency = CaptureLatencyStamp(frames: 4800, sampleRate: 48000, note: "capture latency 4800 frames at 48000 Hz")

    @Test("the time reference, date and time are frame 0's arrival less the latency, at the file's rate")
    func subtracted() {
        let plain = BroadcastInfo(start: start, offset: 0, sampleRate: 44100)
        let late = BroadcastInfo(start: start, offset: 0, sampleRate: 44100, latency: latency)
        // 100 ms at 44.1 kHz, within the rounding of each to a frame.
        #expect(abs(Int64(plain.timeReference) - Int64(late.timeReference) - 4410) <= 1, "\(plain.timeReference) \(late.timeReference)")
        let captured = WallClockTime(seconds: 1_700_000_000, nanoseconds: 150_000_000)
        #expect(late.timeReference == UInt64((captured.secondsSinceLocalMidnight * 44100).rounded()))
        #expect(late.originationTime == captured.localTime && late.originationDate == captured.localDate)
    }

    @Test("the description gives the arrival, the capture and the latency")
    func described() {
        let info = BroadcastInfo(start: start, offset: 480, sampleRate: 48000, latency: latency)
        let first = start.adding(frames: 480, sampleRate: 48000)
        let captured = first.adding(frames: -4800, sampleRate: 48000)
        #expect(info.description == "jackwave: first frame at \(first.iso8601); captured at \(captured.iso8601) (capture latency 4800 frames at 48000 Hz)")
    }

    @Test("a latency of 0 subtracts nothing and says why")
    func unknown() {
        let none = CaptureLatencyStamp(frames: 0, sampleRate: 48000, note: "capture latency unknown: none declared upstream, not subtracted")
        let info = BroadcastInfo(start: start, offset: 0, sampleRate: 48000, latency: none)
        #expect(info.timeReference == BroadcastInfo(start: start, offset: 0, sampleRate: 48000).timeReference)
        #expect(info.description == "jackwave: first frame at \(start.iso8601); capture latency unknown: none declared upstream, not subtracted")
    }

    @Test("a later piece goes on from the first one's time reference, latency and all")
    func piecesContinue() {
        let first = BroadcastInfo(start: start, offset: 0, sampleRate: 48000, latency: latency)
        let second = BroadcastInfo(start: start, offset: 48000, sampleRate: 48000, latency: latency)
        #expect(second.timeReference == first.timeReference + 48000)
    }

    @Test("a description longer than the field's 256 bytes is cut on a character, marked with an ellipsis")
    func cut() {
        let long = CaptureLatencyStamp(frames: 256, sampleRate: 48000, note: String(repeating: "in_1–in_8 256, ", count: 30))
        let info = BroadcastInfo(start: start, offset: 0, sampleRate: 48000, latency: long)
        #expect(info.description.utf8.count <= 256 && info.description.hasSuffix("…"), "\(info.description.utf8.count)")
    }
}
