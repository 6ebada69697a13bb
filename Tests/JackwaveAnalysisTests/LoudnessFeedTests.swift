import Foundation
@testable import JackwaveAnalysis
import JackwaveDSP
import JackwaveLoudness
@testable import JackwaveRunSupport
import JackwaveTestSupport
import Testing

/// `frames` of a 1 kHz sine peaking at `dBFS` on both channels, interleaved.
private func sine(frames: Int, dBFS: Double, rate: Int = 48000) -> [Float] {
    sineWave(frames: frames, frequency: 1000, sampleRate: Double(rate), amplitude: pow(10, dBFS / 20), channels: 2)
}

/// The live analysis's feed: readings every 100 ms of audio and at the end, equal to an
/// analysis of the same frames offline; stopping, never waiting, when it falls behind.
@Suite("LoudnessFeed")
struct LoudnessFeedTests {
    /// Offers `samples` in writer-sized pieces to a started feed, ends its input and waits.
    func fed(_ samples: [Float], piece: Int = 9600) throws -> LoudnessFeed {
        let feed = try #require(LoudnessFeed(channels: 2, sampleRate: 48000, writerFrames: 48000, keepsReadings: true,
                                             messages: MessageQueue()))
        feed.start()
        samples.withUnsafeBufferPointer { p in
            var f = 0
            while f < samples.count / 2 {
                let n = min(piece, samples.count / 2 - f)
                feed.offer(p.baseAddress! + 2 * f, count: n)
                f += n
            }
        }
        feed.inputEnded()
        #expect(feed.wait(timeout: 30))
        return feed
    }

    @Test("a reading every 4800 frames at 48 kHz, and a last one at the very end")
    func readingTimes() throws {
        let feed = try fed(sine(frames: 48000 + 2400, dBFS: -20))
        let frames = feed.takeReadings().map(\.frame)
        #expect(frames == (1...10).map { Int64($0) * 4800 } + [50400])
    }

    @Test("the last reading equals libebur128 given the same frames directly (same engine, same numbers)")
    func matchesDirectAnalysis() throws {
        let samples = sine(frames: 3 * 48000 + 123, dBFS: -20)
        let feed = try fed(samples, piece: 4096)
        let direct = try #require(LoudnessAnalyzer(sampleRate: 48000, weighting: ChannelWeighting(channels: 2, positions: nil)))
        samples.withUnsafeBufferPointer { direct.add($0.baseAddress!, count: samples.count / 2) }
        let last = try #require(feed.latest)
        #expect(last.columns.integrated == Float(direct.integrated))
        #expect(last.columns.momentary == Float(direct.momentary))
        #expect(last.columns.shortTerm == Float(direct.shortTerm))
        #expect(abs(Double(last.columns.integrated) - -20) < 0.05)   // a −20 dBFS stereo sine: −20 LUFS
    }

    @Test("the true peak hold is the whole run's; the current one covers only the last 100 ms")
    func truePeakHoldAndCurrent() throws {
        let feed = try fed(sine(frames: 48000, dBFS: -6) + sine(frames: 48000, dBFS: -30))
        let last = try #require(feed.latest)
        let hold = try #require(last.columns.truePeaks.first, "no true peak held")
        let recent = try #require(last.recentTruePeaks.first, "no recent true peak")
        #expect(abs(Double(hold) - -6) < 0.2)
        #expect(abs(Double(recent) - -30) < 0.2)
    }

    @Test("silence the writer put in a gap is measured as silence, on the same timeline")
    func silenceOffered() throws {
        let feed = try #require(LoudnessFeed(channels: 2, sampleRate: 48000, writerFrames: 48000, keepsReadings: true,
                                             messages: MessageQueue()))
        feed.start()
        feed.offerSilence(9600)
        feed.inputEnded()
        #expect(feed.wait(timeout: 30))
        let readings = feed.takeReadings()
        #expect(readings.map(\.frame) == [4800, 9600])
        #expect(readings.last?.columns.momentary == -.infinity)
    }

    @Test("an offer that does not fit stops the analysis at once with one line, and the offer does not wait")
    func fallsBehind() throws {
        let messages = MessageQueue()
        // The thread is not started: nothing drains.
        let feed = try #require(LoudnessFeed(channels: 2, sampleRate: 48000, writerFrames: 48000, keepsReadings: false,
                                             messages: messages))
        let second = sine(frames: 48000, dBFS: -20)
        second.withUnsafeBufferPointer { p in
            // 6 s into a ring of 4 s rounded up to a power of two (262144 frames, 5.46 s).
            for _ in 0..<6 { feed.offer(p.baseAddress!, count: 48000) }
        }
        #expect(feed.hasStopped)
        #expect(messages.drain() == ["loudness analysis fell behind at 5.000 s and stopped (the recording goes on; loudness columns are empty from there)"])
    }

    @Test("a break between connections starts the filters afresh: each connection's true peak is its own, as its files'")
    func breakStartsFiltersAfresh() throws {
        // A -20 dBFS sine cut at its positive peak, then one that starts at its negative peak.
        let a = 0.1
        let first = (0..<24000).flatMap { i -> [Float] in let v = Float(a * cos(2 * .pi * 1000 * Double(i) / 48000)); return [v, v] }
        let second = (0..<24000).flatMap { i -> [Float] in let v = Float(-a * cos(2 * .pi * 1000 * Double(i) / 48000)); return [v, v] }
        func peak(breaking: Bool) throws -> Double {
            let feed = try #require(LoudnessFeed(channels: 2, sampleRate: 48000, writerFrames: 48000, keepsReadings: false,
                                                 messages: MessageQueue()))
            feed.start()
            first.withUnsafeBufferPointer { feed.offer($0.baseAddress!, count: first.count / 2) }
            if breaking { feed.breakStream() }
            second.withUnsafeBufferPointer { feed.offer($0.baseAddress!, count: second.count / 2) }
            feed.inputEnded()
            #expect(feed.wait(timeout: 30))
            let latest = try #require(feed.latest)
            return Double(try #require(latest.columns.truePeaks.first, "no true peak held"))
        }
        // Each part measured alone, from silence, as a file of it would be.
        func alone(_ samples: [Float]) throws -> Double {
            let analyzer = try #require(LoudnessAnalyzer(sampleRate: 48000, weighting: ChannelWeighting(channels: 2, positions: nil)))
            samples.withUnsafeBufferPointer { analyzer.add($0.baseAddress!, count: samples.count / 2) }
            return Double(Float(LoudnessSummary.decibels(analyzer.truePeak(channel: 0))))
        }
        let separate = max(try alone(first), try alone(second))
        #expect(try peak(breaking: true) == separate)
        let joined = try peak(breaking: false)
        #expect(joined > separate + 0.5, "the join would ring without the break: \(joined) against \(separate)")
    }
}
