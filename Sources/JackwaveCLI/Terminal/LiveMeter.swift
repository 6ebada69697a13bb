import FoundationEssentials
import Glibc
import JackwaveAnalysis
import JackwaveHost

/// The live meter on stderr: meter state fed from the level ring, redrawn at 25 frames a
/// second, with the connection names refreshed twice a second. Main thread.
final class LiveMeter {
    /// Shortest time between frames: the main loop ticks every 20 ms, so this draws every
    /// other tick, 25 frames a second (a little under 40 ms so tick jitter never skips one).
    static let frameInterval = 0.036
    /// Connection names cost a round trip to the server: refreshed every 0.5 s.
    static let connectionsInterval = 0.5

    private(set) var state: MeterState
    let names: [String]
    private let connectionsProvider: () -> [[String]]
    private var connections: [[String]] = []
    private var connectionsFetched = -Double.infinity
    private let screen: TerminalScreen
    /// ANSI colours, unless `NO_COLOR` is set to anything non-empty (no-color.org).
    let color: Bool
    private var lastDraw = -Double.infinity
    private var lastStatus: StatusSnapshot?

    init(names: [String], sampleRate: Int, connections: @escaping () -> [[String]],
         loudnessTarget: Double? = nil, screen: TerminalScreen = TerminalScreen(fd: 2),
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        state = MeterState(channels: names.count, sampleRate: sampleRate, loudnessTarget: loudnessTarget)
        self.names = names
        connectionsProvider = connections
        self.screen = screen
        color = !Self.noColor(environment)
    }

    /// Whether `NO_COLOR` asks for no colours: present and not empty.
    static func noColor(_ environment: [String: String]) -> Bool {
        !(environment["NO_COLOR"] ?? "").isEmpty
    }

    /// One block's peaks.
    func feed<Peaks: Collection<Float>>(startFrame: Int64, frameCount: Int, peaks: Peaks) {
        state.feed(startFrame: startFrame, frameCount: frameCount, peaks: peaks)
    }

    /// The live loudness's latest reading.
    func takeLoudness(_ reading: LoudnessReading) { state.loudness?.take(reading) }

    /// Draws a frame if one is due.
    func tick(status: StatusSnapshot) {
        lastStatus = status
        let now = Self.monotonicSeconds()
        guard now - lastDraw >= Self.frameInterval else { return }
        lastDraw = now
        draw(now: now)
    }

    /// A message above the meter.
    func printAbove(_ line: String) { screen.printAbove(line) }

    /// The final frame, left on screen, and the terminal restored.
    func close() {
        draw(now: Self.monotonicSeconds())
        screen.restore()
    }

    private func draw(now: Double) {
        if now - connectionsFetched >= Self.connectionsInterval {
            connections = connectionsProvider()
            connectionsFetched = now
        }
        let size = screen.size()
        let lines = MeterRenderer.lines(state: state, names: names, connections: connections, status: lastStatus,
                                        width: size.columns, height: size.rows, color: color)
        screen.draw(lines, width: size.columns)
    }

    /// `CLOCK_MONOTONIC` in seconds: frame pacing must not jump with the wall clock.
    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
