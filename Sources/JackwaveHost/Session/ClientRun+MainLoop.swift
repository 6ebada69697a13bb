import FoundationEssentials
import Glibc
import JackwaveDSP
import JackwaveEngine
import JackwaveSoundFiles
import JackwaveVocabulary

/// The turn's main loop: the stop conditions, the tone's fade, the ports, the clock and the
/// level consumers, polled on the main thread until the turn ends.
extension ClientRun {
    /// Fades the tone out; the turn ends when the fade has (or a second later at most).
    private func stopTone() {
        guard toneStopRequestedAt == nil else { return }
        signals.toneStopRequested.store(true, ordering: .relaxed)
        toneStopRequestedAt = Date()
    }

    /// Whether the tone has been asked to fade out.
    private var toneStopping: Bool { toneStopRequestedAt != nil }

    /// Whether this turn plays a tone.
    var playsTone: Bool { engine.configuration.tone != nil }

    /// Polls stop conditions and feeds the level consumers until the turn ends; returns why,
    /// and how many interrupts it has acted on (so that `finish` sees any later one).
    func mainLoop(_ ui: RunFrontEnd, control: RunControl) -> (RunEnding, Int) {
        var handledInterrupts = 0
        loopStartDate = Date()
        while true {
            usleep(ui.pace)
            flushMessages(ui)
            parts.observer.poll(signals)
            if !signals.serverGone.load(ordering: .relaxed) { watchPorts() }
            watchClock()
            ui.tick(control)
            // The keys or OSC may have asked the tone to fade out.
            if toneStopRequestedAt == nil && signals.toneStopRequested.load(ordering: .relaxed) { toneStopRequestedAt = Date() }
            if let levels = parts.levels {
                if let failure = levels.drain(engine, timelineBase: timelineBase, report: { parts.messages.post(Phrase(verbatim: $0)) }) {
                    return (.levelsFailed(failure), handledInterrupts)
                }
                levels.tick(status: status())
            }
            if let ending = stopCondition() { return (ending, handledInterrupts) }
            let interrupts = ui.interrupts
            if interrupts > handledInterrupts {
                handledInterrupts = interrupts
                // With a tone, the first Ctrl-C fades it out; the turn ends when the fade has.
                if playsTone && !toneStopping && interrupts == 1 {
                    stopTone()
                } else {
                    return (.interrupted, handledInterrupts)
                }
            }
            if let since = toneStopRequestedAt,
               signals.toneFinished.load(ordering: .relaxed)
                || Date().timeIntervalSince(since) > (engine.configuration.tone?.fadeSeconds ?? 0) + 1 {
                return (.interrupted, handledInterrupts)
            }
        }
    }

    /// Sources that went or came back, and capture latencies that changed: asked of libjack
    /// on this thread, as the notifications queued them.
    private func watchPorts() {
        reconnector.poll()
        if let ranges = latencyWatch.readIfChanged(),
           let line = parts.latency.read(InputLatencies(names: ports.inputs.map(\.shortName), ranges: ranges),
                                         frame: timelineBase + Int64(signals.streamFrames.load(ordering: .relaxed))) {
            parts.messages.post(Phrase(verbatim: line))
        }
    }

    /// `--split-every`: a reading of the wall clock for the files' cuts; a step of it is a
    /// line and a `clock_step` event (the piece under way ends at once; no frame is lost).
    private func watchClock() {
        guard let files = parts.files, files.spec.clock != nil else { return }
        let frame = Int64(signals.streamFrames.load(ordering: .relaxed))
        let reading = parts.clock.reading(atFrame: timelineBase + frame, sampleRate: parts.sampleRate)
        guard let (at, time) = clockWatch.offer(frame: frame, reading: reading),
              let step = files.observeClock(frame: at, reading: time) else { return }
        let timeline = timelineBase + step.frame
        parts.messages.post(Phrase(printf: "the wall clock stepped %+.3f s at %.3f s", step.seconds, Double(timeline) / Double(parts.sampleRate))
                            + " (it read \(step.reading.iso8601) where the audio's clock said \(step.expected.iso8601)); a new file starts there, no frame is lost")
        parts.events?.emit(.clockStep, frame: timeline, [("seconds", .double(step.seconds)), ("reading", .string(step.reading.iso8601)),
                                                         ("expected", .string(step.expected.iso8601))])
    }

    /// Why the turn must end now, if it must: the server, the writer or the engine says so.
    private func stopCondition() -> RunEnding? {
        // `.acquiring`: the shutdown callback copied the reason before its store.
        if signals.serverGone.load(ordering: .acquiring) {
            parts.messages.post(Phrase(verbatim: notifications.shutdownLine))
            return .serverGone
        }
        switch serverWatch.check(cycles: signals.cycles.load(ordering: .relaxed)) {
        case .gone:
            parts.messages.post("PipeWire is gone: no cycle since \(ServerWatch.probeAfter) s and nothing listens on \(serverWatch.socketPath ?? "its socket")")
            return .serverGone
        case let .silentFor(seconds):
            parts.messages.post(Phrase(printf: "no audio cycle from the JACK server for %.1f s: is it stopped?", seconds))
        case .running:
            break
        }
        let rate = signals.changedSampleRate.load(ordering: .relaxed)
        if rate != 0 { return .sampleRateChanged(from: parts.sampleRate, to: rate) }
        if let writer, writer.failed.load(ordering: .relaxed) { return .writeFailed(writer.failure ?? "write failed") }
        if signals.finished.load(ordering: .relaxed) { return .finished }
        if let ledger = parts.takes, ledger.allDone { return .finished }
        // A bare tone (no file, no duration) ends with its own fade-out.
        if playsTone && parts.files == nil && frameLimit == nil
            && signals.toneFinished.load(ordering: .relaxed) { return .interrupted }
        return nil
    }
}
