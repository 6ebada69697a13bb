import Foundation

/// The live loudness analysis's place in a run (`--loudness`).
extension JackRun {
    /// How long the end of a run waits for the analysis to measure what it still holds: its
    /// ring holds at most 4 s of audio, which it measures many times faster than real time.
    static let loudnessWait = 10.0

    /// Feeds the analysis: from the writer when recording, else from the engine's audio ring
    /// (which exists for it: `LoudnessFeed.meterRingFrames`).
    func attachLoudness() {
        guard let loudness else { return }
        if let writer {
            loudness.acceptOffers(messages: messages)
            writer.loudness = loudness
        } else if let ring = engine.audioRing {
            loudness.consume(ring, drops: engine.dropRing, messages: messages)
        }
    }

    /// After the writer has drained: the analysis's last reading goes onto the stream's
    /// last rows, and the summary says the integrated loudness, LRA and true peak.
    func finishLoudness(_ ui: RunFrontEnd) {
        guard let loudness else { return }
        if let levels { levels.finishLoudness(timeout: Self.loudnessWait) } else { _ = loudness.wait(timeout: Self.loudnessWait) }
        if let line = LoudnessFeed.summaryLine(loudness) { ui.say(line) }
    }
}
