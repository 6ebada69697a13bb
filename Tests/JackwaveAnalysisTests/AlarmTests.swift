import Foundation
import JackwaveAnalysis
import JackwaveRunSupport
import JackwaveTestSupport
import Testing

/// Dead air and clipping (`--silence`, `--clip`) from frames and from level blocks, with
/// durations from the first silent frame; no server needed.
@Suite("Signal alarms")
struct AlarmTests {
    /// Alarms at 1000 Hz (so that frames are milliseconds) collecting what they raise.
    final class Collected: @unchecked Sendable { var events: [AlarmEvent] = [] }

    func alarms(_ settings: AlarmSettings, channels: Int = 2) -> (SignalAlarms, Collected) {
        let collected = Collected()
        return (SignalAlarms(settings: settings, channels: channels, sampleRate: 1000) { collected.events.append($0) }, collected)
    }

    /// Interleaved frames: `level` on channel `loudChannel` for `count` frames, 0 elsewhere.
    func frames(_ count: Int, level: Float, channels: Int = 2, loudChannel: Int = 0) -> [Float] {
        (0..<(count * channels)).map { $0 % channels == loudChannel ? level : 0 }
    }

    func feed(_ a: SignalAlarms, _ x: [Float], at start: Int64, chunk: Int = 128) {
        let channels = a.channels
        x.withUnsafeBufferPointer { p in
            var f = 0
            while f < x.count / channels {
                let n = min(chunk, x.count / channels - f)
                a.add(frames: p.baseAddress! + f * channels, count: n, start: start + Int64(f))
                f += n
            }
        }
    }

    @Test("a silence of the set length raises silence_started when it has lasted that long, and silence_ended with its whole length")
    func silenceBothEvents() throws {
        let (a, got) = alarms(AlarmSettings(silenceLevel: 0.01, silenceSeconds: 2))
        feed(a, frames(1500, level: 0.5), at: 0)
        feed(a, frames(3250, level: 0.001), at: 1500)     // below the level: silent
        feed(a, frames(500, level: 0.5), at: 4750)
        #expect(got.events == [.silenceStarted(frame: 3500, since: 1500), .silenceEnded(frame: 4750, since: 1500)])
        let fields = try #require(got.events.element(at: 1), "\(got.events)").fields(sampleRate: 1000, settings: a.settings)
        #expect(fields.first { $0.0 == "duration" }.map { "\($0.1)" } == "\(EventLog.Value.double(3.25))")
    }

    @Test("a silence shorter than the set length raises nothing")
    func shortSilence() {
        let (a, got) = alarms(AlarmSettings(silenceLevel: 0.01, silenceSeconds: 2))
        feed(a, frames(100, level: 0.5), at: 0)
        feed(a, frames(1999, level: 0), at: 100)
        feed(a, frames(100, level: 0.5), at: 2099)
        #expect(got.events.isEmpty)
    }

    @Test("dead air is judged over all inputs: one input loud keeps the feed alive, a lone silent channel is no alarm")
    func anyInputLoud() {
        let (a, got) = alarms(AlarmSettings(silenceLevel: 0.01, silenceSeconds: 1))
        feed(a, frames(5000, level: 0.2, loudChannel: 1), at: 0)
        #expect(got.events.isEmpty)
        #expect(a.state.silentSince == nil)
    }

    @Test("the stretch is exact to the frame when fed frames, wherever the chunks fall", arguments: [1, 7, 256, 5000])
    func chunkIndependent(chunk: Int) {
        let (a, got) = alarms(AlarmSettings(silenceLevel: 0.01, silenceSeconds: 1))
        var x = frames(4000, level: 0)
        x[2 * 333] = 0.5       // loud at frame 333: 333 silent frames before it, too few
        x[2 * 2500] = -0.5     // and at 2500: silence from 334 to 2499 (2166 frames), then 1499 to the end
        feed(a, x, at: 0, chunk: chunk)
        #expect(got.events == [.silenceStarted(frame: 1334, since: 334), .silenceEnded(frame: 2500, since: 334),
                               .silenceStarted(frame: 3501, since: 2501)])
    }

    @Test("level blocks give the same events, exact to the block: a block at or above the level is loud throughout")
    func fromBlocks() {
        let (a, got) = alarms(AlarmSettings(silenceLevel: 0.01, silenceSeconds: 1))
        var frame: Int64 = 0
        for block in 0..<40 {
            a.add(blockStart: frame, frameCount: 256, peaks: block < 4 || block >= 10 ? [0.3, 0.02] : [0.009, 0])
            frame += 256
        }
        #expect(got.events == [.silenceStarted(frame: 1024 + 1000, since: 1024), .silenceEnded(frame: 2560, since: 1024)])
    }

    @Test("a clip is N consecutive full-scale samples on one input; each second with clips is one event with every input's count")
    func clipping() {
        let (a, got) = alarms(AlarmSettings(clipSamples: 3))
        var x = frames(3000, level: 0.5)
        for f in 10..<13 { x[2 * f] = 1.0 }            // a run of 3 on in_1: a clip
        for f in 20..<22 { x[2 * f] = 1.0 }            // a run of 2: none
        for f in 100..<110 { x[2 * f + 1] = -1.2 }     // a run of 10 on in_2: one clip
        for f in 2500..<2503 { x[2 * f] = 0.99995 }    // within 0.001 dB of full scale, in the third second
        feed(a, x, at: 0, chunk: 11)
        a.finish()
        #expect(got.events == [.clipping(frame: 0, count: 2, perInput: [1, 1]), .clipping(frame: 2000, count: 1, perInput: [1, 0])])
        #expect(a.state.lastClipping?.frame == 2000)
    }

    @Test("--silence reads LEVEL:DURATION in dB or linear, seconds or minutes; refuses the rest")
    func parse() {
        let r = AlarmSettings.parseSilence("-50dB:30s")
        #expect(r.map { abs(Double($0.level) - 0.0031623) < 1e-6 && $0.seconds == 30 } == true)
        #expect(AlarmSettings.parseSilence("0.01:2m").map { $0.level == 0.01 && $0.seconds == 120 } == true)
        for bad in ["-50dB", "-50dB:", "3dB:30s", "-50:30", "x:30", "-50dB:0", "-50dB:-3", "0:30", "-50dB:30s:1"] {
            #expect(AlarmSettings.parseSilence(bad) == nil, "\(bad)")
        }
    }

    @Test("the events' JSON fields: since_frame and duration; count and the inputs' counts")
    func fields() throws {
        let settings = AlarmSettings(silenceLevel: 0.01, silenceSeconds: 30, clipSamples: 3)
        let started = try #require(EventLog.line(.silenceStarted, frame: 1440, AlarmEvent.silenceStarted(frame: 1440, since: 0).fields(sampleRate: 48, settings: settings)))
        let object = try #require(try JSONSerialization.jsonObject(with: started) as? [String: Any])
        #expect(object["event"] as? String == "silence_started" && object["since_frame"] as? Int == 0 && object["seconds"] as? Double == 30)
        let clip = try #require(EventLog.line(.clipping, frame: 0, AlarmEvent.clipping(frame: 0, count: 3, perInput: [2, 1]).fields(sampleRate: 48, settings: settings)))
        let c = try #require(try JSONSerialization.jsonObject(with: clip) as? [String: Any])
        #expect(c["count"] as? Int == 3 && c["inputs"] as? [Int] == [2, 1])
    }

    @Test("the state says how long dead air has lasted and shows the last clipping second for a few seconds, for the meter and OSC")
    func stateForDisplay() {
        let (a, _) = alarms(AlarmSettings(silenceLevel: 0.01, silenceSeconds: 1, clipSamples: 1))
        #expect(a.state.text(now: 0, sampleRate: 1000) == nil)
        feed(a, frames(500, level: 1), at: 0)
        feed(a, frames(1500, level: 0), at: 500)
        let state = a.state
        #expect(state.silentSince == 500)
        #expect(state.text(now: 2500, sampleRate: 1000) == "dead air 2.0 s, clipping 1/s")
        #expect(state.silentSeconds(now: 2500, sampleRate: 1000) == 2)
        // One clip (a run of full-scale samples is one); its second (0 to 1 s) shows until 4 s.
        #expect(state.clipsShown(now: 3999, sampleRate: 1000) == 1 && state.clipsShown(now: 4000, sampleRate: 1000) == nil)
        feed(a, frames(10, level: 0.5), at: 2000)
        #expect(a.state.silentSince == nil)
    }
}
