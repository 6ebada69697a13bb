import FoundationEssentials
import Glibc
import JackwaveSoundFiles

extension JackRun {
    /// The status line's figures now.
    public func status() -> StatusSnapshot {
        // Armed, the file growing is the last take's.
        let path = takes == nil ? recording?.files.spec.path : recording?.files.paths.last
        let fileBytes = path.flatMap { path -> Int64? in
            var info = stat()
            return stat(path, &info) == 0 ? Int64(info.st_size) : nil
        }
        let ringFill = engine.audioRing.map { Double($0.approximateFill) / Double($0.capacity) }
        var snapshot = StatusSnapshot(
            elapsedSeconds: Date().timeIntervalSince(loopStartDate), recordPath: path, fileBytes: fileBytes,
            ringFill: ringFill, xruns: signals.xruns.load(ordering: .relaxed),
            droppedFrames: signals.droppedFrames.load(ordering: .relaxed),
            toneFrequency: playsTone ? Double(bitPattern: signals.toneFrequencyBits.load(ordering: .relaxed)) : nil,
            toneAmplitude: playsTone ? Float(bitPattern: signals.toneAmplitudeBits.load(ordering: .relaxed)) : nil,
            tonePaused: signals.tonePaused.load(ordering: .relaxed))
        snapshot.takeStatus = takeStatus
        return snapshot
    }

    /// The one line said at the end: what was recorded, played or monitored.
    public func summary() -> String {
        let xruns = signals.xruns.load(ordering: .relaxed)
        if writer != nil, let recording {
            // With `--reconnect`, the whole run's: every connection's files and counts.
            let totals = totals()
            let (xruns, dropped) = (totals.xruns, totals.droppedFrames)
            let spec = recording.files.spec
            let frames = totals.fileFrames
            let seconds = String(printf: "%.3f", Double(frames) / Double(spec.fileRate))
            let paths = totals.paths
            // Armed with no take, no file was made: say so rather than name one.
            let names = paths.count > 1 ? "\(paths[0]) … \(paths[paths.count - 1]) (\(paths.count) files)"
                : paths.first ?? (takes == nil ? spec.path : "no file")
            var line = "recorded \(names): \(seconds) s, \(frames) frames, \(counted(engine.configuration.inputs, "channel")), \(xruns) xruns, \(dropped) dropped frames"
            if spec.resamples { line += ", \(spec.fileRate) Hz from the server's \(spec.inputRate) Hz" }
            if let toneText { line += ", tone \(toneText)" }
            if settings.printStart, let startTime { line += ", first frame at \(startTime.iso8601)" }
            return line + totals.gapText
        }
        let frames = signals.streamFrames.load(ordering: .relaxed)
        let seconds = String(printf: "%.3f", Double(frames) / Double(sampleRate))
        if let toneText {
            return "played \(toneText): \(seconds) s, \(counted(engine.configuration.outputs, "output")), \(xruns) xruns"
        }
        return "monitored \(seconds) s, \(counted(engine.configuration.inputs, "channel")), \(xruns) xruns"
    }
}

extension JackRun {
    /// The tone as asked (`440 Hz`) and, if keys or OSC moved it, where it ended
    /// (`440 Hz (last 1059.46 Hz)`); nil without a tone.
    var toneText: String? {
        guard let asked = settings.tone?.frequency else { return nil }
        let last = playingTone.frequency
        return "\(asked.plainText) Hz" + (last == asked ? "" : String(printf: " (last %.2f Hz)", last))
    }
}

/// "1 channel", "2 channels".
func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
