import FoundationEssentials
import JackwaveSoundFiles

/// The wall clock a run reads for its connections' start times and for the cuts on the wall
/// clock (`--split-every`): the system's (`CLOCK_REALTIME`), or, for tests only, one that
/// follows the frame clock (`JACKWAVE_TEST_CLOCK`).
///
/// Why a clock of its own for tests, and not `faketime`: a run that crosses two hour
/// boundaries must hold an hour of audio, which a test gets only from a server running far
/// faster than real time (`jackd -d dummy -w`). A faked system clock runs at its own pace,
/// and wherever it and such a server part by a second jackwave rightly reports a step of the
/// wall clock and cuts there: the test would measure the machine's load. This clock reads
/// the time as frame 0's given time plus the frames since, so the cuts are where the
/// boundaries fall on the frame clock whatever the load; steps of it can be asked for, to
/// test what a step does.
///
/// `JACKWAVE_TEST_CLOCK=SECONDS[,+STEP@AT]…`: frame 0 at Unix time SECONDS (a decimal), and
/// from AT seconds of audio on the clock reads STEP seconds ahead (negative: behind).
struct RunClock: Sendable {
    /// Frame 0's time (the test clock), nil for the system's clock.
    let origin: Double?
    /// The test clock's steps: from `at` seconds of the timeline on, `by` seconds more.
    let steps: [(at: Double, by: Double)]

    /// The system's clock.
    static let system = RunClock(origin: nil, steps: [])

    /// The time at timeline frame `frame` (a frame the callback has just reached, or is about
    /// to: the system's clock reads now).
    func reading(atFrame frame: Int64, sampleRate: Int) -> WallClockTime {
        guard let origin else { return WallClockTime.now() }
        let seconds = Double(frame) / Double(sampleRate)
        let stepped = steps.filter { $0.at <= seconds }.reduce(0) { $0 + $1.by }
        let t = origin + stepped
        let whole = t.rounded(.down)
        return WallClockTime(seconds: Int(whole), nanoseconds: Int(((t - whole) * 1e9).rounded()))
            .adding(frames: frame, sampleRate: sampleRate)
    }

    /// The test clock when `JACKWAVE_TEST_CLOCK` gives one (and reads well), else the system's.
    static func fromEnvironment() -> RunClock {
        guard let text = ProcessInfo.processInfo.environment["JACKWAVE_TEST_CLOCK"] else { return .system }
        return parse(text) ?? .system
    }

    /// `SECONDS[,+STEP@AT]…`; nil if it does not read.
    static func parse(_ text: String) -> RunClock? {
        let fields = text.split(separator: ",").map(String.init)
        guard let first = fields.first, let origin = Double(first), origin.isFinite else { return nil }
        var steps: [(at: Double, by: Double)] = []
        for field in fields.dropFirst() {
            let parts = field.split(separator: "@").map(String.init)
            guard parts.count == 2, let by = Double(parts[0]), let at = Double(parts[1]) else { return nil }
            steps.append((at, by))
        }
        return RunClock(origin: origin, steps: steps)
    }
}
