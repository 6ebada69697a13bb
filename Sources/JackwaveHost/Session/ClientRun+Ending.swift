import JackwaveVocabulary
import FoundationEssentials
import Glibc
import JackwaveDSP
import JackwaveRecording
import JackwaveSoundFiles
import JackwaveTimecode

/// The end of a turn: the callback stopped, the rings drained, the files closed.
extension ClientRun {
    /// Stops JACK, drains the rings and has the writer close its files; returns how the
    /// turn ended. The client stays open (the session closes it).
    func finish(_ ending: RunEnding, handledInterrupts: Int, _ ui: RunFrontEnd) -> ClientRunEnd {
        let serverAlive = ending != .serverGone
        // Who fed each input, asked while the server is still there to answer.
        let feeders = serverAlive ? ports.inputs.map(\.connections) : nil
        notifications.quiet(reportingQueued: serverAlive)
        // Stop taking frames before deactivating: `jack_deactivate` disconnects our ports
        // first, and a cycle run after that records a period of silence that never arrived
        // (seen at the end of Ctrl-C'd takes on jackd -S). The cycle under way when this is
        // stored still has its connections, so it counts whole.
        if serverAlive {
            signals.started.store(false, ordering: .releasing)
            client.deactivate()
        }
        engine.publishPendingDrop()
        // The code to the last frame is read before the writer closes the last file, which
        // asks for its end's timecode.
        if let timecode, !timecode.stop(timeout: TimecodeFollower.endSeconds) {
            ui.say("the LTC reader did not end within \(Int(TimecodeFollower.endSeconds)) s; the files' time is what it had read")
        }
        var abandoned = false
        if let writer { abandoned = drainWriter(writer, ending: ending, handledInterrupts: handledInterrupts, ui) }
        parts.levels?.endConnection(engine, timelineBase: timelineBase, report: { parts.messages.post(Phrase(verbatim: $0)) })
        flushMessages(ui)
        parts.midiReport?.endConnection(engine.midiActivity)
        // A write that failed while draining, after the turn had ended for another reason.
        var lateFailure: String?
        if let writer, writer.failed.load(ordering: .relaxed) {
            if case .writeFailed = ending {} else { lateFailure = writer.failure ?? "write failed" }
        }
        var silent: [String] = []
        if let writer, writer.pipeline != nil, let feeders, !abandoned {
            for c in writer.silentChannels where !feeders[c].isEmpty {
                silent.append("\(ports.inputs[c].shortName): connected to \(feeders[c].joined(separator: ", ")), received only silence")
            }
        }
        return ClientRunEnd(ending: ending, handledInterrupts: handledInterrupts, lateWriteFailure: lateFailure,
                            silentInputs: silent, receivedFrames: Int64(signals.streamFrames.load(ordering: .relaxed)),
                            xruns: signals.xruns.load(ordering: .relaxed),
                            droppedFrames: signals.droppedFrames.load(ordering: .relaxed),
                            endTime: endTime)
    }

    /// Lets the writer drain the ring and close the files; returns whether it stopped
    /// without draining. An interrupt the main loop did not act on (one during the fade or
    /// while stopping) asks for a stop without draining.
    private func drainWriter(_ writer: RecordingWriter, ending: RunEnding, handledInterrupts: Int, _ ui: RunFrontEnd) -> Bool {
        var handled = handledInterrupts
        var abandoned = false
        if case .interrupted = ending, ui.interrupts > handled {
            handled = ui.interrupts
            abandoned = true
        }
        writer.requestStop(abandoned ? .stopNow : .drainThenStop)
        while !writer.wait(timeout: 0.05) {
            if ui.interrupts > handled {
                handled = ui.interrupts
                abandoned = true
                writer.requestStop(.stopNow)
            }
            flushMessages(ui)
        }
        if abandoned, let ring = engine.audioRing {
            // The writer has ended: the main thread may read the ring as its consumer now.
            ui.say("stopping without draining the buffer: \(ring.readableCount) frames received were not written")
        }
        return abandoned
    }
}

/// How a client's turn ended, and what it counted.
struct ClientRunEnd {
    let ending: RunEnding
    let handledInterrupts: Int
    var lateWriteFailure: String? = nil
    let silentInputs: [String]
    var receivedFrames: Int64 = 0
    var xruns = 0
    var droppedFrames = 0
    var endTime: WallClockTime? = nil
}
