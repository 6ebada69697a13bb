import JackwaveTestSupport
import JackwaveTimecode
import Testing

/// `LTCReader` fed libltc's own code (`LTCSignal`, made as the end-to-end tests' peer makes
/// it), offline: the rate found, the time of stream frame 0 against the closed form, the
/// flywheel, jumps.
@Suite("LTC reading")
struct LTCReaderTests {
    struct Read {
        let reader: LTCReader
        let events: [LTCEvent]
        /// Every state the reader was in after a chunk, in order, repeats folded.
        let states: [LTCLock]
    }

    /// Feeds `samples` in chunks of `chunk` (cycling through the sizes given).
    static func read(_ samples: [Float], chunks: [Int] = [256]) -> Read {
        let reader = LTCReader(sampleRate: 48000)
        var events: [LTCEvent] = []
        var states: [LTCLock] = []
        var at = 0, k = 0
        samples.withUnsafeBufferPointer { all in
            while at < all.count {
                let n = min(max(1, chunks[k % chunks.count]), all.count - at)
                events += reader.feed(UnsafeBufferPointer(rebasing: all[at..<(at + n)]), atStreamFrame: Int64(at))
                if states.last.map({ !Self.sameKind($0, reader.lock) }) ?? true { states.append(reader.lock) }
                at += n
                k += 1
            }
        }
        return Read(reader: reader, events: events, states: states)
    }

    static func sameKind(_ a: LTCLock, _ b: LTCLock) -> Bool {
        switch (a, b) {
        case (.searching, .searching), (.locked, .locked), (.freewheeling, .freewheeling), (.lost, .lost): true
        default: false
        }
    }

    /// Samples since midnight of the code's first frame (it starts at stream frame 0).
    static func truth(_ hours: Int, rate: TimecodeRate) -> Double {
        Timecode(hours: hours, minutes: 0, seconds: 0, frames: 0, rate: rate)?.samplesSinceMidnight(sampleRate: 48000) ?? -1
    }

    static func atZero(_ read: Read) -> Double? { read.reader.segment(atStreamFrame: 0)?.samples(atStreamFrame: 0) }

    @Test("the rate is found from the code itself", arguments: [("24", TimecodeRate.fps24), ("25", .fps25), ("29.97df", .fps2997DropFrame), ("30", .fps30)])
    func rateFound(_ fps: String, _ rate: TimecodeRate) throws {
        let read = Self.read(try LTCSignal.make(["--fps", fps, "--seconds", "1"]))
        #expect(read.reader.rate == rate)
        let zero = try #require(Self.atZero(read))
        #expect(abs(zero - Self.truth(1, rate: rate)) <= 2, "\(fps): \(zero)")
    }

    @Test("at −45 dBFS after a 300 Hz high-pass, stream frame 0 is the code's time within 2 samples", arguments: ["25", "29.97df"])
    func quietAndFiltered(_ fps: String) throws {
        let read = Self.read(try LTCSignal.make(["--fps", fps, "--level", "-45", "--highpass", "300", "--seconds", "2"]))
        let rate: TimecodeRate = fps == "25" ? .fps25 : .fps2997DropFrame
        let zero = try #require(Self.atZero(read))
        #expect(abs(zero - Self.truth(1, rate: rate)) <= 2, "\(fps): \(zero)")
    }

    @Test("5 and 10 frames missing are carried over by the flywheel: no jump, no loss, one segment", arguments: [(30, 34), (30, 39)])
    func flywheel(_ from: Int, _ to: Int) throws {
        let read = Self.read(try LTCSignal.make(["--fps", "25", "--seconds", "3", "--mute", "\(from),\(to)"]))
        #expect(read.events.count == 1, "\(read.events)")
        #expect(read.reader.segments.count == 1)
        #expect(read.states.contains { if case .freewheeling = $0 { true } else { false } }, "\(read.states)")
        #expect(!read.states.contains { if case .lost = $0 { true } else { false } }, "\(read.states)")
        let zero = try #require(Self.atZero(read))
        #expect(abs(zero - Self.truth(1, rate: .fps25)) <= 2)
    }

    @Test("more than 10 frames missing is a loss, and the count regained is the same segment")
    func lostAndRegained() throws {
        let read = Self.read(try LTCSignal.make(["--fps", "25", "--seconds", "3", "--mute", "30,45"]))
        let kinds = read.events.map { event -> String in
            switch event {
            case .locked: "locked"
            case .lost: "lost"
            case .jump: "jump"
            }
        }
        #expect(kinds == ["locked", "lost", "locked"], "\(read.events)")
        #expect(read.reader.segments.count == 1)
    }

    @Test("one garbled frame is not a jump")
    func garbled() throws {
        let read = Self.read(try LTCSignal.make(["--fps", "25", "--seconds", "2", "--garble", "20"]))
        #expect(read.events.count == 1 && read.reader.segments.count == 1, "\(read.events)")
    }

    @Test("a re-jam is one jump, and each segment holds its own code's time")
    func jump() throws {
        let read = Self.read(try LTCSignal.make(["--fps", "25", "--seconds", "3", "--jump", "40,10:00:00:00"]))
        let jumps = read.events.filter { if case .jump = $0 { true } else { false } }
        #expect(jumps.count == 1, "\(read.events)")
        try #require(read.reader.segments.count == 2)
        let first = read.reader.segments[0], second = read.reader.segments[1]
        #expect(abs(first.samples(atStreamFrame: 0) - Self.truth(1, rate: .fps25)) <= 2)
        // Frame 40 starts 40 frames of 1920 samples in, where the new code's first frame is.
        #expect(abs(Double(second.startFrame) - 40 * 1920) <= 2, "\(second.startFrame)")
        #expect(abs(second.samples(atStreamFrame: 40 * 1920) - Self.truth(10, rate: .fps25)) <= 2)
    }

    @Test("chunks of any size read the same as one whole")
    func chunking() throws {
        let samples = try LTCSignal.make(["--fps", "29.97df", "--seconds", "2"])
        let whole = Self.read(samples, chunks: [samples.count])
        let odd = Self.read(samples, chunks: [64, 100, 1, 4095, 333])
        #expect(whole.reader.segments == odd.reader.segments)
        #expect(whole.events == odd.events)
    }

    @Test("code running past midnight goes on: no jump")
    func midnight() throws {
        let read = Self.read(try LTCSignal.make(["--fps", "25", "--seconds", "2", "--start", "23:59:59:00"]))
        #expect(read.events.count == 1 && read.reader.segments.count == 1, "\(read.events)")
        #expect(read.reader.timecode(atStreamFrame: 48_000 + 1920)?.description == "00:00:00:01")
    }
}
