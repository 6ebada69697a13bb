import JackwaveTimecode
import Testing

/// Timecode labels and where they lie in the day, against SMPTE 12M's closed forms.
@Suite("Timecode labels")
struct TimecodeTests {
    @Test("drop-frame labels are numbered as SMPTE 12M counts them")
    func dropFrameKnownValues() throws {
        let hour = try #require(Timecode(hours: 1, minutes: 0, seconds: 0, frames: 0, rate: .fps2997DropFrame))
        #expect(hour.framesSinceMidnight == 107_892)
        #expect(Timecode(hours: 0, minutes: 10, seconds: 0, frames: 0, rate: .fps2997DropFrame)?.framesSinceMidnight == 17_982)
        #expect(Timecode(hours: 0, minutes: 1, seconds: 0, frames: 2, rate: .fps2997DropFrame)?.framesSinceMidnight == 1_800)
        #expect(TimecodeRate.fps2997DropFrame.framesPerDay == 2_589_408)
    }

    @Test("every frame number of a drop-frame day maps to a label and back")
    func dropFrameRoundTrip() {
        var wrong: [Int] = []
        for n in stride(from: 0, to: TimecodeRate.fps2997DropFrame.framesPerDay, by: 7) {
            if Timecode(framesSinceMidnight: n, rate: .fps2997DropFrame)?.framesSinceMidnight != n { wrong.append(n) }
            if wrong.count > 5 { break }
        }
        #expect(wrong.isEmpty, "frame numbers that do not come back: \(wrong)")
    }

    @Test("the labels drop-frame skips are refused, and those it keeps are not")
    func dropFrameSkippedLabels() {
        #expect(Timecode(hours: 0, minutes: 1, seconds: 0, frames: 0, rate: .fps2997DropFrame) == nil)
        #expect(Timecode(hours: 0, minutes: 1, seconds: 0, frames: 1, rate: .fps2997DropFrame) == nil)
        #expect(Timecode(hours: 0, minutes: 10, seconds: 0, frames: 0, rate: .fps2997DropFrame) != nil)
        #expect(Timecode(hours: 0, minutes: 1, seconds: 0, frames: 0, rate: .fps30) != nil)
        #expect(Timecode(hours: 0, minutes: 0, seconds: 0, frames: 25, rate: .fps25) == nil)
    }

    @Test("labels read hh:mm:ss:ff, with a semicolon before drop-frame frames")
    func text() {
        #expect(Timecode(hours: 1, minutes: 2, seconds: 3, frames: 4, rate: .fps25)?.description == "01:02:03:04")
        #expect(Timecode(hours: 1, minutes: 2, seconds: 3, frames: 4, rate: .fps2997DropFrame)?.description == "01:02:03;04")
    }

    @Test("a label's time in samples is its frame count times the frame's exact length")
    func samples() {
        #expect(Timecode(hours: 1, minutes: 0, seconds: 0, frames: 0, rate: .fps25)?.samplesSinceMidnight(sampleRate: 48000) == 172_800_000)
        #expect(Timecode(hours: 1, minutes: 0, seconds: 0, frames: 0, rate: .fps2997DropFrame)?.samplesSinceMidnight(sampleRate: 48000)
                == 107_892.0 * 1001 / 30000 * 48000)
        #expect(Timecode(hours: 0, minutes: 0, seconds: 1, frames: 0, rate: .fps24)?.samplesSinceMidnight(sampleRate: 44100) == 44100)
    }

    @Test("a frame number past the day wraps into it")
    func wraps() {
        #expect(Timecode(framesSinceMidnight: TimecodeRate.fps25.framesPerDay + 3, rate: .fps25)?.description == "00:00:00:03")
        #expect(Timecode(framesSinceMidnight: -1, rate: .fps25)?.description == "23:59:59:24")
    }
}
