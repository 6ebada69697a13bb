import FoundationEssentials
import Glibc
import JackwaveRunSupport
import JackwaveSoundFiles

/// What a run's connections received between them (`--reconnect`): summed turn by turn so
/// that the summary and the events speak of the whole run. Fixed in size however many
/// times the server comes back.
public struct RunTotals: Sendable, Equatable {
    /// Frames received from the servers (at their rate): the run's timeline.
    public var receivedFrames: Int64 = 0
    public var xruns = 0
    public var droppedFrames = 0
    /// The times the server was away: how many, and their seconds and frames in all.
    public var gaps = 0
    public var gapSeconds = 0.0
    public var gapFrames: Int64 = 0

    public init() {}

    /// Adds one turn's counts.
    mutating func add(_ end: ClientRunEnd) {
        receivedFrames += end.receivedFrames
        xruns += end.xruns
        droppedFrames += end.droppedFrames
    }

    /// Adds one time the server was away.
    mutating func add(_ gap: ServerGap) {
        gaps += 1
        gapSeconds += gap.seconds
        let (sum, overflow) = gapFrames.addingReportingOverflow(gap.framesLost)
        gapFrames = overflow ? .max : sum
    }

    /// ", 2 server gaps (4.210 s, about 202080 frames lost, by wall time × rate)", or "".
    var gapText: String {
        guard gaps > 0 else { return "" }
        return ", \(counted(gaps, "server gap"))"
            + String(printf: " (%.3f s, about %lld frames lost, by wall time × rate)", gapSeconds, gapFrames)
    }
}

/// A time the server was away: from the last frame received to the next connection's frame 0.
public struct ServerGap: Sendable, Equatable {
    /// Wall-clock seconds between the two.
    public let seconds: Double
    /// `seconds × rate`: a restarted server's frame clock starts again from 0, so it cannot
    /// count what it missed; wall time is the only measure of the gap.
    public let framesLost: Int64

    public init(from lastFrame: WallClockTime, to nextStart: WallClockTime, sampleRate: Int) {
        seconds = max(0, Double(nextStart.seconds - lastFrame.seconds) + Double(nextStart.nanoseconds - lastFrame.nanoseconds) / 1e9)
        // The wall clock may be set centuries ahead while the server is away (the kernel's
        // spans 292 years), and a server may run at any 32-bit rate: the count stops at
        // Int64.max (as the sum of them does) rather than overflow.
        let frames = (seconds * Double(sampleRate)).rounded()
        framesLost = frames < Double(Int64.max) ? Int64(frames) : .max
    }
}

