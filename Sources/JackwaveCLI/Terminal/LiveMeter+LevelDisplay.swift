import JackwaveAnalysis
import JackwaveHost

/// The meter is what the run's level pipeline shows its blocks on.
extension LiveMeter: LevelDisplay {
    func levels(startFrame: Int64, frameCount: Int, peaks: [Float]) {
        feed(startFrame: startFrame, frameCount: frameCount, peaks: peaks)
    }

    func loudness(_ reading: LoudnessReading) { takeLoudness(reading) }
}
