import JackwaveHost
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveVocabulary
import Testing

/// The rules between a run's settings, refused with the settings they are about.
@Suite("Run rules")
struct RunRulesTests {
    func refusal(_ o: RunOptions) -> Phrase? {
        do throws(UsageError) {
            try o.validate()
            return nil
        } catch {
            return error.message
        }
    }

    @Test("arming by level and by the transport at once is refused, naming both settings")
    func triggerAndTransport() {
        var o = RunOptions()
        o.recording.path = "t.wav"
        o.takes.triggerLevel = 0.1
        o.takes.followTransport = true
        #expect(refusal(o) == "\(setting: .trigger) and \(setting: .transport) exclude each other")
    }

    @Test("retention of one file that is never cut is refused, and says what cuts files")
    func keepNeedsPieces() {
        var o = RunOptions()
        o.recording.path = "t.wav"
        o.station.retention.bytes = 1 << 30
        let line = refusal(o)
        #expect(line?.mentions(.keepSpace) == true && line?.mentions(.splitEvery) == true, "\(String(describing: line))")
        o.station.splitEvery = ClockPeriod(seconds: 3600)
        #expect(refusal(o) == nil)
    }

    @Test("a pre-roll without arming is refused rather than ignored")
    func preRollNeedsArming() {
        var o = RunOptions()
        o.recording.path = "t.wav"
        o.takes.preRollSeconds = 2
        #expect(refusal(o) == "\(setting: .preRoll) needs \(setting: .trigger) or \(setting: .transport)")
    }
}
