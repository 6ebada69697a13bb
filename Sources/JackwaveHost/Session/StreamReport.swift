import FoundationEssentials
import Glibc
import JackwaveRunSupport
import JackwaveStreaming

/// What a run's live stream tells the user: each `StreamEvent` as a line and an `--events`
/// object (on the streamer's thread: the queue and the event log take any thread), and at the
/// end of the run the stream's summary line. Built once per run, with the streamer.
struct StreamReport: Sendable {
    let target: StreamTarget
    let sampleRate: Int
    let messages: MessageQueue
    let events: EventLog?

    /// How long the end of a run waits for the stream to send what it holds.
    static let finishSeconds = 5.0

    /// One line, and one event. `frame` is the stream's place on the run's timeline (the
    /// frames offered to it so far, across connections).
    func tell(_ event: StreamEvent, frame: Int64) {
        let url = target.display
        switch event {
        case let .connected(attempt, missed):
            // The first connection names libshout's version, which `--version` leaves unloaded.
            messages.post(attempt == 1 ? "stream: connected to \(url) (\(Shout.libraryVersion))"
                : "stream: connected again to \(url) (\(seconds(missed)) s were not streamed while it was away)")
            events?.emit(.streamConnected, frame: frame, [("url", .string(url)), ("connection", .int(Int64(attempt))),
                                                          ("missed_frames", .int(missed))])
        case let .lost(reason, retry):
            messages.post("stream: lost \(url): \(reason); trying again in \(retry.plainText) s (the recording goes on)")
            events?.emit(.streamLost, frame: frame, [("url", .string(url)), ("reason", .string(reason)),
                                                     ("retry_seconds", .double(retry))])
        case let .connectFailed(reason, retry):
            messages.post("stream: cannot connect to \(url): \(reason); trying again in \(retry.plainText) s")
            events?.emit(.streamConnectFailed, frame: frame, [("url", .string(url)), ("reason", .string(reason)),
                                                              ("retry_seconds", .double(retry))])
        case let .dropped(frames):
            messages.post("stream: fell behind and skipped \(frames) frames (\(seconds(frames)) s) by \(seconds(frame)) s (the recording has them)")
            events?.emit(.streamDropped, frame: frame, [("url", .string(url)), ("frames", .int(frames))])
        }
    }

    /// The end of the run, once every writer has ended: the stream's input ends, its last
    /// bytes are given `finishSeconds` to leave, and its summary line comes back.
    static func finish(_ stream: Streamer, sampleRate: Int) -> String {
        stream.feed.inputEnded()
        guard stream.wait(timeout: finishSeconds) else {
            return "stream: did not end within \(Int(finishSeconds)) s; left behind"
        }
        let seconds = { (frames: Int64) in String(printf: "%.3f", Double(frames) / Double(sampleRate)) }
        let count = stream.connections
        var line = "stream: \(stream.target.display): \(seconds(stream.streamedFrames)) s streamed in \(counted(count, "connection")), "
            + "\(seconds(stream.missedFrames)) s not streamed while the server was away, \(stream.feed.droppedFramesSoFar) frames dropped"
        if stream.awaySilenceFrames > 0 {
            line += ", \(seconds(stream.awaySilenceFrames)) s of silence sent while the JACK server was away"
        }
        return line
    }

    private func seconds(_ frames: Int64) -> String { String(printf: "%.3f", Double(frames) / Double(sampleRate)) }
}
