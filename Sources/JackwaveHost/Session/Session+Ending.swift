import FoundationEssentials
import Glibc
import JackwaveAnalysis
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveVocabulary

extension Session {
    /// How long the end of a run waits for the loudness analysis to measure what it still
    /// holds: its ring holds at most the writer's ring (10 s by default), which it measures
    /// many times faster than real time.
    static let loudnessWait = 10.0
    /// How long the end of a run waits for the MIDI thread's last pass: what the MIDI ring
    /// holds (ten seconds of events at most), the last files' ends, and a last write of each
    /// `.mid`, normally a few milliseconds each.
    static let midiWait = 10.0

    /// Ends the run after its last turn (`last`, nil when it ended between turns): the take
    /// still open ended, the loudness analysis and the file finisher done (cues, pictures,
    /// per-file loudness: bounded work), every line and the summary; then the `--on-close`
    /// commands are waited for (a user's command may take long: the summary does not wait
    /// for it), and the `stopped` event ends the events. Returns the exit code.
    func finish(_ parts: SessionParts, totals: RunTotals, last: ClientRunEnd?, code: Int32,
                firstStart: WallClockTime?) -> Int32 {
        var code = code
        if options.recordsMidiOnly, let midi = parts.midiThread, let path = options.recording.path {
            midi.endAlone(path: path, frames: totals.receivedFrames)
        }
        if let ledger = parts.takes, ledger.openTake != nil {
            // A take a restart had cut: its last file is closed; it ends here.
            parts.files?.endTake()
            ledger.ended(at: nil)
        }
        // Every writer has ended, and the last files' ends are posted: the MIDI thread's last
        // pass writes them. If it does not end, the audio is complete all the same.
        let midiEnded = parts.midiThread?.stop(timeout: Self.midiWait, frame: totals.receivedFrames) ?? true
        // What the MIDI thread counted after the last connection's lines, or did not write
        // at all: said too.
        parts.midiReport?.check(nil, parts.midi?.snapshot, unfinished: !midiEnded, frame: totals.receivedFrames,
                                sampleRate: parts.sampleRate, messages: parts.messages, events: parts.events)
        if let loudness = parts.loudness {
            loudness.inputEnded()
            if !loudness.wait(timeout: Self.loudnessWait) {
                // Its figures would leave the end out: the rows still waiting get none.
                loudness.giveUp()
                frontEnd.say("loudness analysis did not finish within \(Int(Self.loudnessWait)) s; the loudness of the end is left out")
            }
        }
        parts.alarms?.finish()
        parts.levels?.close()
        for line in parts.levels?.takeLines() ?? [] { frontEnd.say(Phrase(verbatim: line)) }
        frontEnd.audioStopped()
        if let loudness = parts.loudness, let line = LoudnessFeed.summaryLine(loudness) { frontEnd.say(Phrase(verbatim: line)) }
        let streamLine = parts.stream.map { StreamReport.finish($0, sampleRate: parts.sampleRate) }
        parts.finisher?.finish()
        parts.flushLines(to: frontEnd)

        if let last {
            if let line = last.ending.errorLine { frontEnd.error(Phrase(verbatim: line)) }
            if let failure = last.lateWriteFailure {
                frontEnd.error("\(failure); the file holds everything written before the error")
                code = 1
            }
            for line in last.silentInputs { frontEnd.say(Phrase(verbatim: line)) }
        }
        if let message = parts.levels?.failure, last?.ending != .levelsFailed(message) {
            frontEnd.error(Phrase(verbatim: message))
            code = 1
        }
        for line in takeLines(parts) { frontEnd.say(Phrase(verbatim: line)) }
        if let line = parts.latency.summaryLine { frontEnd.say(Phrase(verbatim: line)) }
        for line in parts.dropouts?.summaryLines() ?? [] { frontEnd.say(line) }
        for (number, frame) in parts.markers.unclaimed {
            let why = parts.takes != nil ? "no take was recording" : "after the last frame written"
            frontEnd.say("marker \(number) at \(Self.seconds(frame, parts.sampleRate)): in no file (\(why))")
        }
        if let streamLine { frontEnd.say(Phrase(verbatim: streamLine)) }
        if let line = timecodeLine(parts) { frontEnd.say(Phrase(verbatim: line)) }
        for line in parts.midiReport?.summaryLines(parts.midi?.snapshot, stopped: parts.midiThread?.stopped, unfinished: !midiEnded,
                                                   sampleRate: parts.sampleRate, controlled: options.midi.controlPort != nil) ?? [] {
            frontEnd.say(Phrase(verbatim: line))
        }
        frontEnd.say(Phrase(verbatim: summary(parts, totals: totals, firstStart: firstStart)))
        if let hook = parts.hook {
            // An interrupt after the one the run ended on (or after the end, when it ended by
            // itself) stops the hooks: an ending never waits on a hook it was told not to.
            let acted = last?.handledInterrupts ?? frontEnd.interrupts
            hook.finish(giveUp: { [frontEnd] in frontEnd.interrupts > acted })
        }
        parts.remote?.finish()
        parts.flushLines(to: frontEnd)
        if parts.finisher?.plotFailed.load(ordering: .relaxed) == true || (parts.finisher?.leftUnfinished ?? 0) > 0 { code = 1 }
        // A side job's file that could not be written (the events, as the level stream
        // above) is a runtime failure: the audio is complete, the run exits 1.
        if parts.events?.failure != nil { code = 1 }
        parts.events?.emit(.stopped, frame: totals.receivedFrames, [("exit_code", .int(Int64(code)))])
        // The events' last lines leave (a reader that stopped reading gets a bound, no more).
        parts.events?.close()
        // `stopped` runs `--on-event` too: the end waits for the commands queued, a bound.
        parts.eventHook?.finish()
        parts.flushLines(to: frontEnd)
        if let failure = parts.events?.failure {
            frontEnd.error(failure)
            code = 1
        }
        return code
    }

    /// The one line said at the end: what was recorded, played or monitored, over the
    /// whole run (every turn's files and counts).
    func summary(_ parts: SessionParts, totals: RunTotals, firstStart: WallClockTime?) -> String {
        let seconds = String(printf: "%.3f", Double(totals.receivedFrames) / Double(parts.sampleRate))
        if let files = parts.files {
            let spec = files.spec
            // Read once every writer has ended (the last one's end orders this read).
            let frames = files.framesWritten
            let recorded = String(printf: "%.3f", Double(frames) / Double(spec.fileRate))
            // Armed with no take, no file was made: say so rather than name one.
            let names = files.files.names ?? (spec.takes ? "no file" : spec.path)
            var line = "recorded \(names): \(recorded) s, \(frames) frames, \(counted(parts.channels, "channel")), \(totals.xruns) xruns, \(totals.droppedFrames) dropped frames"
            if spec.resamples { line += ", \(spec.fileRate) Hz from the server's \(spec.inputRate) Hz" }
            line += dropoutText(parts)
            if let toneText = toneText(parts) { line += ", tone \(toneText)" }
            if options.recording.printStart, let firstStart { line += ", first frame at \(firstStart.iso8601)" }
            return line + totals.gapText
        }
        if options.recordsMidiOnly, let path = options.recording.path {
            let events = parts.midi?.snapshot.recorded.reduce(0, +) ?? 0
            return "recorded \(path): \(seconds) s, \(counted(events, "MIDI event")), \(totals.xruns) xruns" + totals.gapText
        }
        if let toneText = toneText(parts) {
            return "played \(toneText): \(seconds) s, \(counted(parts.outputs, "output")), \(totals.xruns) xruns" + totals.gapText
        }
        return "monitored \(seconds) s, \(counted(parts.channels, "channel")), \(totals.xruns) xruns" + dropoutText(parts) + totals.gapText
    }

    /// `--ltc`: where the files' timecode began and ended, and the files that span a jump.
    private func timecodeLine(_ parts: SessionParts) -> String? {
        guard options.timecode.ltcPort != nil, let tally = parts.files?.files else { return nil }
        var wallClock: [String] = []
        if tally.filesWithoutCode > 0 { wallClock.append("\(counted(tally.filesWithoutCode, "file")) began where no code was locked") }
        if tally.filesBeforeReader > 0 {
            wallClock.append("\(counted(tally.filesBeforeReader, "file")) began before the LTC reader had read that far")
        }
        let wallText = wallClock.isEmpty ? "" : "; " + wallClock.joined(separator: ", ") + ": their time is the wall clock's"
        guard let first = tally.firstTimecode, let last = tally.lastTimecode else {
            return "timecode: no file was stamped from LTC (none locked in time); their bext and iXML time is the wall clock's" + wallText
        }
        var line = "timecode: the files run from \(first) to \(last)"
        if tally.filesSpanningJumps > 0 { line += "; \(counted(tally.filesSpanningJumps, "file")) span a jump in the code (a marker there)" }
        return line + wallText
    }

    /// ", 3 dropouts" when the run looks for them (on every input; per input in the lines
    /// before the summary), else "".
    private func dropoutText(_ parts: SessionParts) -> String {
        guard let dropouts = parts.dropouts else { return "" }
        return ", \(counted(dropouts.total, "dropout"))"
    }

    /// The tone as asked (`440 Hz`) and, if keys or OSC moved it, where it ended
    /// (`440 Hz (last 1059.46 Hz)`); nil without a tone.
    private func toneText(_ parts: SessionParts) -> String? {
        guard let asked = parts.tone?.frequency else { return nil }
        let last = control.playingTone.frequency
        return "\(asked.plainText) Hz" + (last == asked ? "" : String(printf: " (last %.2f Hz)", last))
    }

    /// One line per take, for the summary: its files, its length and where it began.
    func takeLines(_ parts: SessionParts) -> [String] {
        guard let ledger = parts.takes else { return [] }
        let (list, count) = ledger.takes
        if count == 0 { return ["no take was recorded"] }
        var lines = list.map { take in
            "take \(take.number): \(take.files.names ?? "no file"): \(Self.seconds(take.frames, parts.files?.spec.fileRate ?? parts.sampleRate)), \(take.frames) frames, from frame \(take.firstFrame) of the run (\(Self.seconds(take.firstFrame, parts.sampleRate)))"
        }
        if count > list.count { lines.append("… and \(count - list.count) takes more") }
        return lines
    }

    /// The line said once the run has started, when armed.
    static func armedLine(_ parts: SessionParts) -> String? {
        guard let take = parts.takeSettings else { return nil }
        let rate = parts.sampleRate
        let preRoll = String(printf: "%.3f", Double(take.preRollFrames) / Double(rate))
        switch take.start {
        case let .level(level):
            return "armed: a take starts at a peak of \(decibels(level)), ends after \(seconds(take.stopAfterFrames, rate)) below \(decibels(take.stopLevel)); \(preRoll) s of pre-roll"
        case .transport:
            return "armed: a take records while the JACK transport rolls, and \(seconds(take.stopAfterFrames, rate)) after; \(preRoll) s of pre-roll"
        case .machineControl:
            return "armed: a take starts at MMC RECORD STROBE and ends at RECORD EXIT or STOP, each at its frame; \(preRoll) s of pre-roll"
        }
    }

    /// `frames` at `rate` as "1.234 s".
    static func seconds(_ frames: Int64, _ rate: Int) -> String {
        String(printf: "%.3f s", Double(frames) / Double(rate))
    }

    /// A linear level as "-30.0 dBFS".
    static func decibels(_ level: Float) -> String {
        level > 0 ? String(printf: "%.1f dBFS", 20 * log10(Double(level))) : "-inf dBFS"
    }
}

