import FoundationEssentials
import Glibc

/// The live stream's place in a run (`--stream`): built with the run, fed by the writer,
/// started before `jack_activate`, ended after the writer has drained.
extension JackRun {
    /// How long the end of a run waits for the stream to send what it holds.
    static let streamWait = 5.0

    /// The streamer for `settings.stream`, fed by the writer; nil without a stream or a
    /// recording. Its events become lines and `--events` objects (`reportStream`).
    func makeStream() -> Streamer? {
        guard let settings = settings.stream, let writer else { return nil }
        let run = WeakRun(self)
        let streamer = Streamer(target: settings.target, password: settings.password, channels: writer.channels,
                                sampleRate: sampleRate, writerFrames: writer.ring.capacity,
                                compression: settings.compression) { event, frame in
            run.run?.reportStream(event, frame: frame, target: settings.target)
        }
        writer.stream = streamer.feed
        return streamer
    }

    /// One line, and one event when `--events` is on. On the streamer's thread.
    func reportStream(_ event: StreamEvent, frame: Int64, target: StreamTarget) {
        let url = target.display
        let at = observer?.timeline(streamFrame: Int(frame)) ?? frame
        let seconds = { (frames: Int64) in String(printf: "%.3f", Double(frames) / Double(self.sampleRate)) }
        switch event {
        case let .connected(attempt, missed):
            messages.post(attempt == 1 ? "stream: connected to \(url)"
                : "stream: connected again to \(url) (\(seconds(missed)) s were not streamed while it was away)")
            observer?.events?.emit(.streamConnected, frame: at, [("url", .string(url)), ("connection", .int(Int64(attempt))),
                                                                 ("missed_frames", .int(missed))])
        case let .lost(reason, retry):
            messages.post("stream: lost \(url): \(reason); trying again in \(retry.plainText) s (the recording goes on)")
            observer?.events?.emit(.streamLost, frame: at, [("url", .string(url)), ("reason", .string(reason)),
                                                            ("retry_seconds", .double(retry))])
        case let .connectFailed(reason, retry):
            messages.post("stream: cannot connect to \(url): \(reason); trying again in \(retry.plainText) s")
            observer?.events?.emit(.streamConnectFailed, frame: at, [("url", .string(url)), ("reason", .string(reason)),
                                                                     ("retry_seconds", .double(retry))])
        case let .dropped(frames):
            messages.post("stream: fell behind and skipped \(frames) frames (\(seconds(frames)) s) by \(seconds(frame)) s (the recording has them)")
            observer?.events?.emit(.streamDropped, frame: at, [("url", .string(url)), ("frames", .int(frames))])
        }
    }

    /// After the writer has drained (its `inputEnded` reached the feed): lets the stream send
    /// its last bytes, and says what it streamed.
    func finishStream(_ ui: RunFrontEnd) {
        guard let stream else { return }
        if !stream.wait(timeout: Self.streamWait) {
            ui.say("stream: did not end within \(Int(Self.streamWait)) s; left behind")
            return
        }
        flushStreamLines(ui)
        let dropped = stream.feed.droppedFrames.load(ordering: .relaxed)
        let seconds = { (frames: Int64) in String(printf: "%.3f", Double(frames) / Double(self.sampleRate)) }
        let count = stream.connections
        ui.say("stream: \(stream.target.display): \(seconds(stream.streamedFrames)) s streamed in \(count) connection\(count == 1 ? "" : "s"), "
               + "\(seconds(stream.missedFrames)) s not streamed while the server was away, \(dropped) frames dropped")
    }

    private func flushStreamLines(_ ui: RunFrontEnd) {
        for line in messages.drain() { ui.say(line) }
    }
}

/// The run as the streamer's thread reaches it for its reports: weakly, since the run owns
/// the streamer. The run's `messages` and `observer` are safe to use from there (a lock; set
/// before the stream starts).
final class WeakRun: @unchecked Sendable {
    weak var run: JackRun?
    init(_ run: JackRun) { self.run = run }
}
