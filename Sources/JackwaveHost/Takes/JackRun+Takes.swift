import FoundationEssentials
import Glibc
import JackwaveDSP

extension JackRun {
    /// Block records to hold as many blocks as the audio ring holds frames at JACK's
    /// smallest period (16), so that the records never run out before the audio does.
    static func blockRingBlocks(audioRingFrames: Int) -> Int { max(64, audioRingFrames / 16) }

    /// The line said once the run has started, when armed.
    func armedLine() -> String? {
        guard let take = settings.takes else { return nil }
        let preRoll = String(printf: "%.3f", Double(take.preRollFrames) / Double(sampleRate))
        switch take.start {
        case let .level(level):
            return "armed: a take starts at a peak of \(Self.decibels(level)), ends after \(Self.seconds(take.stopAfterFrames, sampleRate)) below \(Self.decibels(take.stopLevel)); \(preRoll) s of pre-roll"
        case .transport:
            return "armed: a take records while the JACK transport rolls, and \(Self.seconds(take.stopAfterFrames, sampleRate)) after; \(preRoll) s of pre-roll"
        }
    }

    /// One line per take, for the summary: its file, its length and where it began.
    func takeLines() -> [String] {
        guard let takes else { return [] }
        let list = takes.takes
        if list.isEmpty { return ["no take was recorded"] }
        return list.map { take in
            "take \(take.number): \(take.path): \(Self.seconds(take.frames, sampleRate)), \(take.frames) frames, from frame \(take.firstFrame) of the run (\(Self.seconds(take.firstFrame, sampleRate)))"
        }
    }

    /// The armed state for the status line: "armed", "recording take 3",
    /// "take 3 stopping in 1.2 s"; nil when not armed.
    public var takeStatus: String? {
        guard let takes else { return nil }
        let number = takes.takeNumber.load(ordering: .relaxed)
        switch TakePhase(rawValue: takes.phase.load(ordering: .relaxed)) ?? .armed {
        case .armed: return "armed"
        case .recording: return "recording take \(number)"
        case .stopping:
            let left = Double(takes.framesToStop.load(ordering: .relaxed)) / Double(sampleRate)
            return String(printf: "take %d stopping in %.1f s", number, left)
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
