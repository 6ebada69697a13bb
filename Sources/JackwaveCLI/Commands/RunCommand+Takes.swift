import FoundationEssentials
import Glibc
import JackwaveHost
import JackwaveSoundFiles

extension RunCommand {
    /// Takes are `FILE-001.wav`, `FILE-002.wav`, …: without `--force`, refuse if any such
    /// name exists; with it, takes are numbered after the files that exist (a take never
    /// overwrites a file).
    static func checkTakePaths(_ path: String, force: Bool) throws(UsageError) {
        if let existing = SplitNaming.existingPieces(of: path).first, !force {
            throw UsageError("--record \(path): \(existing) exists (takes never overwrite a file; use --force to number them after it)")
        }
    }

    /// The take settings at the server's rate, or nil when not armed. The pre-roll is
    /// mapped and locked up front: with the ring, it must fit in half of the machine's memory.
    static func takeSettings(_ o: RunOptions, channels: Int, serverRate: Int) throws(UsageError) -> TakeSettings? {
        guard o.armed, o.records else { return nil }
        let preRoll = Int((o.preRollSeconds * Double(serverRate)).rounded())
        let bytes = Double(preRoll + Int(o.bufferSeconds * Double(serverRate))) * Double(channels) * Double(MemoryLayout<Float>.stride)
        let memory = Double(sysconf(Int32(_SC_PHYS_PAGES))) * Double(sysconf(Int32(_SC_PAGESIZE)))
        if bytes > memory / 2 {
            let most = (memory / 2 / Double(channels * MemoryLayout<Float>.stride) - o.bufferSeconds * Double(serverRate)) / Double(serverRate)
            throw UsageError("--pre-roll \(o.preRollSeconds.plainText) s × \(channels) channels needs \(String(printf: "%.1f", bytes / 1e9)) GB with the --buffer ring, more than half of this machine's memory (at most \(String(printf: "%.0f", max(0, most))) s here)")
        }
        let start: TakeSettings.Start = o.triggerLevel.map { .level($0) } ?? .transport
        // 6 dB under the trigger: half its amplitude.
        let stopLevel = o.stopLevel ?? (o.triggerLevel ?? 0) / 2
        let stopAfter = o.stopAfterSeconds ?? (o.followTransport ? 0 : 2)
        return TakeSettings(start: start, stopLevel: stopLevel, preRollFrames: preRoll,
                            stopAfterFrames: Int64((stopAfter * Double(serverRate)).rounded()),
                            maximumTakes: o.maximumTakes)
    }
}
