import JackwaveDSP
import JackwaveHost

/// The main thread's consumer of the level ring: feeds the level stream and the meter.
/// (Stub: stream and meter to come.)
final class LevelPipeline {
    private(set) var failure: String?

    /// Whether a run with these options consumes levels at all.
    static func wanted(_ o: RunOptions, stderrIsTerminal: Bool) -> Bool {
        o.levelsPath != nil || (o.meter ?? stderrIsTerminal)
    }

    /// Opens the level stream (creating its file) and prepares the meter.
    init(options: RunOptions, sampleRate: Int, inputNames: [String],
         connections: @escaping () -> [[String]], stderrIsTerminal: Bool) throws(LevelStreamError) {}

    /// Takes every block the callback has published; returns a failure message if the
    /// stream could not be written.
    func drain(_ engine: RealtimeEngine) -> String? {
        guard let ring = engine.levelRing else { return nil }
        let r = ring.readableRegions()
        ring.commitRead(r.count)
        return failure
    }

    /// Redraws the meter if a frame is due.
    func tick(status: StatusSnapshot) {}

    /// The last drain, after the callback has stopped; ends the stream, restores the terminal.
    func drainAndClose(_ engine: RealtimeEngine) { _ = drain(engine) }

    /// Prints a line without tearing the meter.
    func printAboveMeter(_ line: String) { Console.write(line + "\n") }
}

/// A level stream that could not be opened or written.
struct LevelStreamError: Error {
    let message: String
}
