import JackwaveVocabulary
import FoundationEssentials
import Glibc
import JackwaveDSP
import JackwaveRecording
import JackwaveSoundFiles

/// What a turn says while it runs: its lines, and the status line's figures.
extension ClientRun {
    /// Says what happened since the last pass: connections, drops, lost levels, frames the
    /// server skipped, and what the run's other threads have to say.
    func flushMessages(_ ui: RunFrontEnd) {
        let skipped = signals.skippedFrames.load(ordering: .relaxed)
        if skipped > reportedSkippedFrames {
            let at = Double(timelineBase + Int64(signals.streamFrames.load(ordering: .relaxed))) / Double(parts.sampleRate)
            parts.messages.post(Phrase(printf: "the server skipped %d frames by %.3f s (it did not run jackwave for them; the file goes on without them)",
                                       skipped - reportedSkippedFrames, at))
            reportedSkippedFrames = skipped
        }
        parts.midiReport?.check(engine.midiActivity, parts.midi?.snapshot,
                                frame: timelineBase + Int64(signals.streamFrames.load(ordering: .relaxed)),
                                sampleRate: parts.sampleRate, messages: parts.messages, events: parts.events)
        if !notifications.isQuiet && !signals.serverGone.load(ordering: .relaxed) { notifications.reportConnections() }
        parts.flushLines(to: ui)
    }

    /// The status line's figures now.
    func status() -> StatusSnapshot {
        // Armed, the file growing is the last take's.
        let path = parts.files?.currentPath
        let fileBytes = path.flatMap { path -> Int64? in
            var info = stat()
            return stat(path, &info) == 0 ? Int64(info.st_size) : nil
        }
        let ringFill = parts.files == nil ? nil : engine.audioRing.map { Double($0.approximateFill) / Double($0.capacity) }
        var snapshot = StatusSnapshot(
            elapsedSeconds: Date().timeIntervalSince(loopStartDate), recordPath: path, fileBytes: fileBytes,
            ringFill: ringFill, xruns: signals.xruns.load(ordering: .relaxed),
            droppedFrames: signals.droppedFrames.load(ordering: .relaxed),
            toneFrequency: playsTone ? Double(bitPattern: signals.toneFrequencyBits.load(ordering: .relaxed)) : nil,
            toneAmplitude: playsTone ? Float(bitPattern: signals.toneAmplitudeBits.load(ordering: .relaxed)) : nil,
            tonePaused: signals.tonePaused.load(ordering: .relaxed))
        snapshot.takeStatus = takeStatus
        snapshot.midiStatus = parts.midiReport?.status(engine.midiActivity, parts.midi?.snapshot)
        snapshot.timecodeStatus = timecode.map { "TC " + TimecodeReport.status($0.lock).text }
        snapshot.alarmStatus = parts.alarms?.state.text(now: timelineBase + Int64(signals.streamFrames.load(ordering: .relaxed)),
                                                        sampleRate: parts.sampleRate)
        return snapshot
    }

    /// The armed state for the status line: "armed", "recording take 3",
    /// "take 3 stopping in 1.2 s"; nil when not armed.
    var takeStatus: String? {
        guard let takes else { return nil }
        let number = takes.takeNumber.load(ordering: .relaxed)
        switch TakePhase(rawValue: takes.phase.load(ordering: .relaxed)) ?? .armed {
        case .armed: return "armed"
        case .recording: return "recording take \(number)"
        case .stopping:
            let left = Double(takes.framesToStop.load(ordering: .relaxed)) / Double(parts.sampleRate)
            return String(printf: "take %d stopping in %.1f s", number, left)
        }
    }

    /// The wall-clock time of the frame after the last one received (frame 0's time plus
    /// the frames since), once the turn has started.
    var endTime: WallClockTime? {
        startTime?.adding(frames: Int64(signals.streamFrames.load(ordering: .relaxed)), sampleRate: parts.sampleRate)
    }
}
