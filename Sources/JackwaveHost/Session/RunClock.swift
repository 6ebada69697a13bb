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
/// from AT seconds of audio on the clock reads STEP seconds ahead (negative: behind). While
/// `--reconnect` waits for a server, it runs in real time.
final class RunClock {
    /// Frame 0's time (the test clock), nil for the system's clock.
    let origin: WallClockTime?
    /// The test clock's steps: from `at` seconds of the timeline on, `by` seconds more.
    let steps: [(at: Double, by: Double)]
    /// The test clock's time spent waiting for a server (`--reconnect`), which no frame
    /// counts: it goes on in real time then.
    private var awaySeconds = 0.0

    init(origin: WallClockTime?, steps: [(at: Double, by: Double)]) {
        self.origin = origin
        self.steps = steps
    }

    /// The system's clock.
    static var system: RunClock { RunClock(origin: nil, steps: []) }

    /// The time at timeline frame `frame` (a frame the callback has just reached, or is about
    /// to: the system's clock reads now). Main thread.
    func reading(atFrame frame: Int64, sampleRate: Int) -> WallClockTime {
        guard let origin else { return WallClockTime.now() }
        let seconds = Double(frame) / Double(sampleRate)
        let shift = steps.filter { $0.at <= seconds }.reduce(awaySeconds) { $0 + $1.by }
        let whole = shift.rounded(.down)
        return WallClockTime(seconds: origin.seconds + Int(whole), nanoseconds: origin.nanoseconds + Int(((shift - whole) * 1e9).rounded()))
            .adding(frames: frame, sampleRate: sampleRate)
    }

    /// The run waited `seconds` (real time) for a server: the test clock moves on by as much.
    func serverWasAway(seconds: Double) {
        if origin != nil { awaySeconds += max(0, seconds) }
    }

    /// `SECONDS[,+STEP@AT]…`, SECONDS read exactly to the nanosecond; nil if it does not read.
    static func parse(_ text: String) -> RunClock? {
        let fields = text.split(separator: ",").map(String.init)
        guard let first = fields.first, let origin = exactTime(first) else { return nil }
        var steps: [(at: Double, by: Double)] = []
        for field in fields.dropFirst() {
            let parts = field.split(separator: "@").map(String.init)
            guard parts.count == 2, let by = Double(parts[0]), let at = Double(parts[1]) else { return nil }
            steps.append((at, by))
        }
        return RunClock(origin: origin, steps: steps)
    }

    /// `1741960799.6` as whole seconds and nanoseconds, without a binary fraction's error.
    private static func exactTime(_ text: String) -> WallClockTime? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let seconds = Int(parts[0]) else { return nil }
        guard parts.count == 2 else { return WallClockTime(seconds: seconds, nanoseconds: 0) }
        let digits = String(parts[1].prefix(9))
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let fraction = Int(digits) else { return nil }
        var nanoseconds = fraction
        for _ in digits.count..<9 { nanoseconds *= 10 }
        return WallClockTime(seconds: seconds, nanoseconds: nanoseconds)
    }
}
