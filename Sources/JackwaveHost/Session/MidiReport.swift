import JackwaveMIDI
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveVocabulary

/// What a run says of its MIDI inputs: each loss as it happens (a line and a `midi_lost`
/// event), the status line's counts, and the summary's lines. Main thread only.
///
/// The callback's counters (`MidiActivity`) belong to one connection; the run's totals add
/// each connection's as it ends. The recorder's (`MidiRecorder.Totals`) are the run's.
final class MidiReport: @unchecked Sendable {
    /// The MIDI inputs' short names (`midi_1`, …, then `mmc`), and how many are recorded.
    let names: [String]
    let recorded: Int
    /// Events and losses of the connections that have ended, per input.
    private var earlierEvents: [Int]
    private var earlierJack: [Int]
    private var earlierRoom: [Int]
    /// What has been said so far, per input and reason.
    private var said: [String: [Int]] = [:]

    init(names: [String], recorded: Int) {
        self.names = names
        self.recorded = recorded
        earlierEvents = Array(repeating: 0, count: names.count)
        earlierJack = earlierEvents
        earlierRoom = earlierEvents
    }

    /// Events each input received over the run so far.
    func events(_ activity: MidiActivity?) -> [Int] {
        names.indices.map { earlierEvents[$0] + (activity?.events(port: $0) ?? 0) }
    }

    /// Losses per reason and input over the run so far. `unfinished` (the MIDI thread did
    /// not end, so what it had not written is in no count of its own): the events received
    /// and in no other count, too.
    private func losses(_ activity: MidiActivity?, _ totals: MidiRecorder.Totals?, unfinished: Bool = false)
        -> [(reason: String, counts: [Int])] {
        let pad = { (list: [Int]?) in self.names.indices.map { i in list.map { i < $0.count ? $0[i] : 0 } ?? 0 } }
        var list = [("jack", names.indices.map { earlierJack[$0] + (activity?.lostByJack(port: $0) ?? 0) }),
                    ("ring", names.indices.map { earlierRoom[$0] + (activity?.lostForRoom(port: $0) ?? 0) }),
                    ("malformed", pad(totals?.malformed)), ("unrecordable", pad(totals?.unrecordable)),
                    ("writer", pad(totals?.lost)), ("failed", pad(totals?.unwritten))]
        if unfinished {
            let received = events(activity), recorded = pad(totals?.recorded), outside = pad(totals?.outside)
            list.append(("unfinished", names.indices.map { i in
                i < self.recorded ? max(0, received[i] - recorded[i] - outside[i] - list.reduce(0) { $0 + $1.1[i] }) : 0
            }))
        }
        return list
    }

    /// Says the losses since the last call: a line and a `midi_lost` event per input and reason.
    func check(_ activity: MidiActivity?, _ totals: MidiRecorder.Totals?, unfinished: Bool = false, frame: Int64, sampleRate: Int,
               messages: MessageQueue, events: EventLog?) {
        for (reason, counts) in losses(activity, totals, unfinished: unfinished) {
            var before = said[reason] ?? Array(repeating: 0, count: names.count)
            for (i, count) in counts.enumerated() where count > before[i] {
                let new = count - before[i]
                messages.post(Phrase(verbatim: "\(names[i]): \(new) MIDI event\(new == 1 ? "" : "s") lost by \(String(printf: "%.3f s", Double(frame) / Double(sampleRate))) (\(Self.why[reason] ?? reason))"))
                events?.emit(.midiLost, frame: frame, [("input", .string(names[i])), ("count", .int(Int64(new))), ("reason", .string(reason))])
                before[i] = count
            }
            said[reason] = before
        }
    }

    static let why = [
        "jack": "the server could not deliver them",
        "ring": "no room on the way to the MIDI thread",
        "malformed": "not valid MIDI",
        "unrecordable": "System Reset, which a Standard MIDI File cannot hold",
        "writer": "the MIDI writer's queue or the file was full",
        "failed": "their .mid could not be written, or MIDI had stopped",
        "unfinished": "the MIDI thread had not written them when the run ended",
    ]

    /// Events lost so far, every input and reason together.
    func lostTotal(_ activity: MidiActivity?, _ totals: MidiRecorder.Totals?) -> Int {
        losses(activity, totals).reduce(0) { $0 + $1.counts.reduce(0, +) }
    }

    /// A connection ends: its counts become the run's.
    func endConnection(_ activity: MidiActivity) {
        for i in names.indices {
            earlierEvents[i] += activity.events(port: i)
            earlierJack[i] += activity.lostByJack(port: i)
            earlierRoom[i] += activity.lostForRoom(port: i)
        }
    }

    /// The status line's part: `MIDI midi_1 12 midi_2 0`, and the losses if any.
    func status(_ activity: MidiActivity?, _ totals: MidiRecorder.Totals?) -> String {
        let counts = events(activity)
        var text = "MIDI " + names.indices.map { "\(names[$0]) \(counts[$0])" }.joined(separator: " ")
        let lost = losses(activity, totals).reduce(0) { $0 + $1.counts.reduce(0, +) }
        if lost > 0 { text += " lost \(lost)" }
        return text
    }

    /// The summary's lines: the MIDI files, and each input's events and losses; why MIDI
    /// stopped before the end, if it did (`MidiThread.stopped`); MMC's commands.
    func summaryLines(_ totals: MidiRecorder.Totals?, stopped: (reason: String, frame: Int64)? = nil, unfinished: Bool = false,
                      sampleRate: Int = 0, controlled: Bool) -> [String] {
        var lines: [String] = []
        let counts = events(nil)
        let lost = losses(nil, totals, unfinished: unfinished)
        var perInput: [String] = []
        for i in 0..<recorded {
            let gone = lost.reduce(0) { $0 + $1.counts[i] }
            let written = totals.map { i < $0.recorded.count ? $0.recorded[i] : 0 }
            perInput.append("\(names[i]) \(counts[i]) events" + (written.map { $0 == counts[i] ? "" : ", \($0) in files" } ?? "")
                            + (gone > 0 ? ", \(gone) lost" : ""))
        }
        if let totals, totals.files > 0, let first = totals.firstFile, let last = totals.lastFile {
            let files = totals.files > 1 ? "\(first) … \(last) (\(totals.files) files)" : first
            var line = "MIDI \(files): " + perInput.joined(separator: "; ")
            let outside = totals.outside.reduce(0, +)
            if outside > 0 { line += "; \(outside) outside every take" }
            if totals.chasedNotes > 0 { line += "; \(totals.chasedNotes) notes chased across cuts" }
            lines.append(line)
        } else if recorded > 0 {
            lines.append("MIDI (no file): " + perInput.joined(separator: "; "))
        }
        if let stopped, recorded > 0 {
            let at = sampleRate > 0 ? String(printf: " at %.3f s", Double(stopped.frame) / Double(sampleRate)) : ""
            lines.append("MIDI stopped\(at): \(stopped.reason); the .mid files hold what was written before")
        }
        if controlled {
            let commands = totals?.commands ?? [:]
            let heard = ["record_strobe", "record_exit", "stop", "ignored"].compactMap { name in
                commands[name].map { "\($0) \(name.uppercased().map { $0 == "_" ? " " : $0 }.map(String.init).joined())" }
            }
            lines.append("MMC: " + (heard.isEmpty ? "no command heard" : heard.joined(separator: ", ")))
        }
        return lines
    }
}
