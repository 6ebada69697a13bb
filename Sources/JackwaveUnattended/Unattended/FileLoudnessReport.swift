import FoundationEssentials
import Glibc
import JackwaveAnalysis
import JackwaveLoudness
import JackwaveRecording
import JackwaveRunSupport
import JackwaveSoundFiles

/// The loudness of each finished file and of each take, measured from the files themselves:
/// exactly what `jackwave loudness FILE` says, a take's pieces pooled as one programme. On
/// the file finisher's thread, in closing order; a take is complete when a file of a later
/// take comes, or at the end.
struct FileLoudnessReport {
    /// The take being pooled: its number, its blocks, its largest true peak (linear).
    private var take: (number: Int, gating: LoudnessHistogram, shortTerm: LoudnessHistogram, truePeak: Double)?

    /// Measures `file`; returns its line and its event's fields, and those of the take it
    /// completed (the previous take, when this file begins another).
    mutating func measure(_ file: RecordedFile) -> [(line: String, event: RunEventKind, fields: [(String, EventLog.Value)])] {
        var out: [(String, RunEventKind, [(String, EventLog.Value)])] = []
        if let take, take.number != file.take, let done = finishTake() { out.append(done) }
        guard let sound = try? SoundFile(readingFrom: file.path), let (summary, analyzer) = FileLoudness.measure(sound) else {
            return out + [("\(FileNames.lastComponent(file.path)): loudness not measured (cannot read it back)", .fileLoudness,
                           [("path", .string(file.path)), ("ok", .bool(false))])]
        }
        let peak = summary.truePeak
        out.append(("\(FileNames.lastComponent(file.path)): " + Self.text(summary.integrated, summary.loudnessRange, peak),
                    .fileLoudness, [("path", .string(file.path))] + Self.fields(summary.integrated, summary.loudnessRange, peak)))
        if file.take > 0 {
            var pooled = take ?? (file.take, LoudnessHistogram(), LoudnessHistogram(), 0)
            pooled.gating.merge(analyzer.gatingBlocks)
            pooled.shortTerm.merge(analyzer.shortTermBlocks)
            pooled.truePeak = max(pooled.truePeak, (0..<sound.channels).map { analyzer.truePeak(channel: $0) }.max() ?? 0)
            take = pooled
        }
        return out
    }

    /// The take being pooled, finished: its line and event; nil when there is none.
    mutating func finishTake() -> (line: String, event: RunEventKind, fields: [(String, EventLog.Value)])? {
        guard let t = take else { return nil }
        take = nil
        let peak = LoudnessSummary.decibels(t.truePeak)
        return ("take \(t.number): " + Self.text(t.gating.integrated, t.shortTerm.loudnessRange, peak), .takeLoudness,
                [("take", .int(Int64(t.number)))] + Self.fields(t.gating.integrated, t.shortTerm.loudnessRange, peak))
    }

    /// "I -23.0 LUFS, LRA 4.1 LU, true peak -1.5 dBTP", as the run's summary line says it.
    static func text(_ integrated: Double, _ range: Double, _ truePeak: Double) -> String {
        "I \(LoudnessFeed.text(Float(integrated))) LUFS, LRA \(LoudnessFeed.text(Float(range))) LU, true peak \(LoudnessFeed.text(Float(truePeak))) dBTP"
    }

    /// The event's loudness fields, named as the level stream's columns (a silent file's −∞
    /// is written as JSON has it: `null` is not a number, so −∞ stays out as 0 would lie).
    static func fields(_ integrated: Double, _ range: Double, _ truePeak: Double) -> [(String, EventLog.Value)] {
        [("lufs_i", integrated), ("lra", range), ("dbtp", truePeak)].compactMap { name, value in
            value.isFinite ? (name, .double(value)) : nil
        }
    }
}
