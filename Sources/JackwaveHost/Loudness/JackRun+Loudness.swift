import FoundationEssentials
import Glibc

/// The live loudness analysis's place in a run (`--loudness`).
extension JackRun {
    /// How long the end of a run waits for the analysis to measure what it still holds: its
    /// ring holds at most the writer's ring (10 s by default), which it measures many times
    /// faster than real time.
    static let loudnessWait = 10.0

    /// Feeds the analysis: from the writer when recording, else from the engine's audio ring
    /// (which exists for it: `LoudnessFeed.meterRingFrames`).
    func attachLoudness() {
        guard let loudness else { return }
        if let writer {
            loudness.acceptOffers(writerFrames: writer.ring.capacity, messages: messages)
            writer.loudness = loudness
        } else if let ring = engine.audioRing {
            loudness.consume(ring, drops: engine.dropRing, messages: messages)
        }
    }

    /// After the writer has drained: the analysis's last reading goes onto the stream's
    /// last rows, and the summary says the integrated loudness, LRA and true peak.
    func finishLoudness(_ ui: RunFrontEnd) {
        guard let loudness else { return }
        if !loudness.wait(timeout: Self.loudnessWait) {
            // Its figures would leave the end out: the rows still waiting get none.
            loudness.giveUp()
            ui.say("loudness analysis did not finish within \(Int(Self.loudnessWait)) s; the loudness of the end is left out")
        }
        levels?.finishLoudness()
        if let line = LoudnessFeed.summaryLine(loudness) { ui.say(line) }
    }
}
