import FoundationEssentials
import Glibc

/// Watches, from the main loop, that the server still runs our callback. jackd says when it
/// goes; PipeWire's libjack does not (its cycles just stop), so after `probeAfter` seconds
/// without a cycle a PipeWire server's socket is tried. A server silent for `reportAfter`
/// seconds is reported once per silence, and never stops a run on that alone.
package struct ServerWatch {
    /// Long enough for any period (8192 frames at 44.1 kHz is 0.19 s) and a period change,
    /// short enough that a dead PipeWire ends a take within the promised second.
    package static let probeAfter = 0.1
    /// A silence worth telling the user about.
    static let reportAfter = 2.0

    let isPipeWire: Bool
    package let socketPath: String?
    private var lastCycles = -1
    private var lastProgress = Date()
    private var reported = false

    package init(isPipeWire: Bool, socketPath: String?) {
        self.isPipeWire = isPipeWire
        self.socketPath = socketPath
    }

    /// What the watch makes of the cycle count now.
    package enum Verdict: Equatable { case running, silentFor(Double), gone }

    /// Looks at the callback's cycle count; says `.silentFor` once per silence.
    package mutating func check(cycles: Int, now: Date = Date()) -> Verdict {
        if cycles != lastCycles {
            lastCycles = cycles
            lastProgress = now
            reported = false
            return .running
        }
        let silence = now.timeIntervalSince(lastProgress)
        if isPipeWire && silence >= Self.probeAfter && !PipeWireSocket.isListening(at: socketPath) { return .gone }
        if silence >= Self.reportAfter && !reported {
            reported = true
            return .silentFor(silence)
        }
        return .running
    }
}
