import FoundationEssentials
import Glibc
import JackwaveHost
import JackwaveLevelStream
import JackwaveRunSupport
import JackwaveSoundFiles

/// The main command's command line (everything but the `plot` and `levels` subcommands):
/// its declaration, section by section in the `RunOptionsParser+…` files, and the checks
/// between options that no single declaration can make.
public enum RunOptionsParser {
    /// One of the main command's options.
    typealias Option = OptionDeclaration<RunOptions>

    /// Channel and output counts above this are refused: JACK itself tops out near here,
    /// and a typo (`-c 20000`) should fail fast rather than allocate a huge ring.
    public static let maximumPorts = 1024
    /// `--rate` bounds: below 1 kHz is no audio rate anyone records at (a typo for kHz),
    /// and 768 kHz is the highest rate JACK and libsndfile's formats are used at.
    public static let rateRange = 1000...768_000
    /// The longest `--duration` and `--split`: a week, beyond any take; longer is a typo.
    static let maximumSeconds: Double = 7 * 24 * 3600
    /// The shortest `--split`: a piece is a file, a close and a hook; `--split 0.00003` made a
    /// file per frame. `FileChoice.minimumSplitSeconds`, which the OSC split keeps too.
    static let minimumSplitSeconds = FileChoice.minimumSplitSeconds

    static let commandLine = CommandDeclaration<RunOptions>(
        name: "jackwave",
        summary: "jackwave: record, play tones and meter levels on a JACK server.",
        usage: [
            "jackwave --record FILE [options]   record the input ports to FILE",
            "jackwave --tone HZ [options]       play a sine tone on the output ports",
            "jackwave [options]                 meter the first two capture ports",
            "jackwave plot FILE -o OUT.png|svg  draw a recording or a level stream",
            "jackwave levels FILE [--block N] [-o OUT]   a sound file's level stream, offline",
            "jackwave loudness FILE... [--json]          loudness (EBU R 128) and true peak, offline",
            "jackwave measure [-t PORT] [-p PORT] [--json FILE]  latency, response, distortion, noise",
        ],
        argument: nil,
        sections: [recording, takes, midi, timecode, tone, levels, unattended, station, jack, information],
        footer: [
            "Ctrl-C stops cleanly (a tone fades out first); a second Ctrl-C stops at once, still",
            "leaving a valid file. Exit codes: 0 done, 1 runtime failure, 2 bad usage.",
        ])

    /// The options, or the first thing wrong with them.
    public static func parse(_ arguments: [String]) throws(UsageError) -> RunOptions {
        let (o, given) = try commandLine.parse(arguments, into: RunOptions())
        if o.recording.listFormats { return o }
        // The rules between settings are the run's (`RunOptions.validate`); only what the
        // command line alone knows is checked here: an option given without the one it needs.
        try o.validatePorts()
        try commandLine.checkNeeds(given)
        try o.validate()
        return o
    }

    /// `0.5` (linear) or `-6dB` (dBFS); refuses anything above full scale.
    public static func parseVolume(_ text: String) throws(UsageError) -> Float {
        try parseLevel(text, option: "--volume")
    }

    /// A level for `option`: linear (`0.5`) or dBFS (`-6dB`), at most full scale.
    public static func parseLevel(_ text: String, option: String) throws(UsageError) -> Float {
        let lower = text.lowercased()
        let linear: Double
        if lower.hasSuffix("db") {
            guard let db = Double(lower.dropLast(2).trimmingBlanks()), db.isFinite else {
                throw UsageError("\(option): '\(text)' is not a level (use 0.5 or -6dB)")
            }
            guard db <= 0 else { throw UsageError("\(option): \(text) is above 0 dBFS") }
            linear = pow(10, db / 20)
        } else {
            guard let v = Double(text), v.isFinite else {
                throw UsageError("\(option): '\(text)' is not a level (use 0.5 or -6dB)")
            }
            guard v >= 0 && v <= 1 else { throw UsageError("\(option) must be between 0 and 1 (or at most 0dB), not \(text)") }
            linear = v
        }
        return Float(linear)
    }
}
