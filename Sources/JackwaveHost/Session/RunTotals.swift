import FoundationEssentials
import Glibc
import JackwaveSoundFiles

/// What a run's connections recorded between them (`--reconnect`): carried from one
/// connection to the next so that the summary and the events speak of the whole run.
public struct RunTotals: Sendable {
    /// Every file written, in order.
    public var paths: [String] = []
    /// Frames in the files, at the file rate.
    public var fileFrames = 0
    /// Frames received from the servers (at their rate): the run's timeline.
    public var receivedFrames: Int64 = 0
    public var xruns = 0
    public var droppedFrames = 0
    /// The times the server was away.
    public var gaps: [ServerGap] = []

    public init() {}

    /// ", 2 server gaps (4.210 s, about 202080 frames lost, by wall time × rate)", or "".
    var gapText: String {
        guard !gaps.isEmpty else { return "" }
        let seconds = gaps.reduce(0) { $0 + $1.seconds }
        let frames = gaps.reduce(Int64(0)) { $0 + $1.framesLost }
        return ", \(counted(gaps.count, "server gap"))"
            + String(printf: " (%.3f s, about %lld frames lost, by wall time × rate)", seconds, frames)
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
        framesLost = Int64((seconds * Double(sampleRate)).rounded())
    }
}

extension JackRun {
    /// The carried totals with this connection's added.
    public func totals() -> RunTotals {
        var t = carried ?? RunTotals()
        if let recording { t.paths += recording.files.paths }
        if let writer { t.fileFrames += writer.framesWritten.load(ordering: .relaxed) }
        t.receivedFrames += Int64(signals.streamFrames.load(ordering: .relaxed))
        t.xruns += signals.xruns.load(ordering: .relaxed)
        t.droppedFrames += signals.droppedFrames.load(ordering: .relaxed)
        return t
    }

    /// The wall-clock time of the frame after the last one received (frame 0's time plus
    /// the frames since), once the run has started.
    public var endTime: WallClockTime? {
        startTime?.adding(frames: Int64(signals.streamFrames.load(ordering: .relaxed)), sampleRate: sampleRate)
    }
}

extension JackRun {
    /// The file being recorded now, if any.
    public var recordingPath: String? { recording?.files.paths.last }
}
