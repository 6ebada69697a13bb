import JackwaveRunSupport
import JackwaveSoundFiles
import Synchronization
import JackwaveVocabulary

/// A run's dropouts, across its connections: counted per input, the first ones kept with
/// their times for the summary, each an `--events` line, the first on each input said at
/// once, and their frames handed to the level stream (`LevelPipeline`). Written by the writer
/// thread (`DropoutCounter`) and read by the main thread under a lock (neither is realtime);
/// bounded by `listLimit` and `levelQueueLimit`, beyond which dropouts are only counted.
public final class DropoutLedger: @unchecked Sendable {
    /// One dropout on the run's timeline.
    public struct Entry: Equatable, Sendable {
        public let input: Int
        public let frame: Int64
        public let frames: Int
        public let kind: DropoutDetector.Dropout.Kind
    }

    public let inputNames: [String]
    let sampleRate: Int
    let events: EventLog?
    let messages: MessageQueue
    /// Whether a level stream takes the dropouts' frames.
    let feedsLevels: Bool
    public let listLimit: Int
    static let levelQueueLimit = 1 << 16

    private struct State {
        var counts: [Int]
        var listed: [Entry] = []
        var forLevels: [Int64] = []
        var lostForLevels = 0
        var saidLost = false
    }
    private let state: Mutex<State>
    /// The timeline frame before which every dropout has been recorded (`.releasing` after
    /// the records, `.acquiring` by the reader): the level stream's rows up to it are final.
    private let settled = Atomic<Int64>(0)

    public init(inputNames: [String], sampleRate: Int, events: EventLog?, messages: MessageQueue, feedsLevels: Bool,
                listLimit: Int = 1024) {
        self.inputNames = inputNames
        self.sampleRate = sampleRate
        self.events = events
        self.messages = messages
        self.feedsLevels = feedsLevels
        self.listLimit = listLimit
        state = Mutex(State(counts: [Int](repeating: 0, count: inputNames.count)))
    }

    // MARK: Writer thread

    /// Records what a connection's detector found (its frames from `timelineBase` on the
    /// run's timeline): counts, list, events, the first line per input.
    func record(_ found: [DropoutDetector.Dropout], timelineBase: Int64) {
        guard !found.isEmpty else { return }
        let entries = found.map { Entry(input: $0.input, frame: timelineBase + $0.frame, frames: $0.frames, kind: $0.kind) }
        var firsts: [Entry] = []
        var sayLost = false
        state.withLock { s in
            for e in entries {
                if s.counts[e.input] == 0 { firsts.append(e) }
                s.counts[e.input] += 1
                if s.listed.count < listLimit { s.listed.append(e) }
                if feedsLevels {
                    if s.forLevels.count < Self.levelQueueLimit { s.forLevels.append(e.frame) } else { s.lostForLevels += 1 }
                }
            }
            if s.lostForLevels > 0 && !s.saidLost { (s.saidLost, sayLost) = (true, true) }
        }
        if sayLost {
            messages.post("more than \(Self.levelQueueLimit) dropouts waited for the level stream at once: its rows leave some out (the counts, the summary and \(setting: .events) have every one)")
        }
        for e in entries {
            events?.emit(.dropout, frame: e.frame, [("input", .string(inputNames[e.input])), ("kind", .string(e.kind.rawValue)),
                                                    ("frames", .int(Int64(e.frames)))])
        }
        for e in firsts {
            messages.post("\(inputNames[e.input]): a dropout at \(Self.describe(e, sampleRate)), where it carried signal (the link or the source lost audio); every dropout is counted to the end")
        }
    }

    /// Every dropout that begins before timeline frame `frame` has been recorded.
    func settle(through frame: Int64) {
        settled.store(frame, ordering: .releasing)
    }

    // MARK: Main thread

    /// How far the level stream may label its rows: frames before this are final.
    package var settledFrame: Int64 { settled.load(ordering: .acquiring) }

    /// The frames of the dropouts recorded since the last call, for the level stream (in the
    /// order found: sorted within one pass of the writer).
    package func takeForLevels() -> [Int64] {
        state.withLock { s in
            defer { s.forLevels.removeAll(keepingCapacity: true); s.lostForLevels = 0 }
            return s.forLevels
        }
    }

    /// Dropouts per input so far.
    public var counts: [Int] { state.withLock { $0.counts } }

    /// The first `listLimit` dropouts, in the order found.
    public var listed: [Entry] { state.withLock { $0.listed } }

    /// Dropouts on every input.
    public var total: Int { counts.reduce(0, +) }

    /// The summary's lines: one per input that had dropouts, with the first ones' times.
    package func summaryLines(timesPerInput: Int = 8) -> [Phrase] {
        let counts = self.counts, listed = self.listed
        return counts.indices.filter { counts[$0] > 0 }.map { c in
            let mine = listed.filter { $0.input == c }
            let shown = mine.prefix(timesPerInput).map { Self.describe($0, sampleRate) }
            let more = counts[c] - shown.count
            let line: Phrase = "\(inputNames[c]): \(counted(counts[c], "dropout")), at \(shown.joined(separator: ", "))"
            return more > 0 ? line + " and \(more) more (each in \(setting: .events))" : line
        }
    }

    /// "1.234 s (zeros, 256 frames)".
    static func describe(_ e: Entry, _ sampleRate: Int) -> String {
        String(printf: "%.3f s", Double(e.frame) / Double(sampleRate)) + " (\(e.kind.rawValue), \(e.frames) frames)"
    }
}

/// A connection's dropout detection, on its writer thread: a `DropoutDetector` fed every
/// frame the writer takes from the ring, its findings put on the run's timeline in the
/// run's `DropoutLedger`.
public final class DropoutCounter {
    let ledger: DropoutLedger
    /// Where this connection's frame 0 lies on the run's timeline.
    let timelineBase: Int64
    private var detector: DropoutDetector

    package init(ledger: DropoutLedger, timelineBase: Int64, thresholds: DropoutThresholds) {
        self.ledger = ledger
        self.timelineBase = timelineBase
        detector = DropoutDetector(channels: ledger.inputNames.count, thresholds: thresholds, listLimit: 0)
    }

    /// `frames` interleaved frames, the next ones of the connection's stream.
    package func feed(_ samples: UnsafePointer<Float>, frames: Int) {
        let found = detector.feed(UnsafeBufferPointer(start: samples, count: frames * detector.channels), frames: frames)
        ledger.record(found, timelineBase: timelineBase)
        ledger.settle(through: timelineBase + detector.settledFrame)
    }

    /// `frames` frames of the stream that were not the source's (dropped by jackwave, written
    /// as silence): skipped.
    package func skip(frames: Int) {
        detector.skip(frames: frames)
        ledger.settle(through: timelineBase + detector.settledFrame)
    }
}

/// The detector sees every frame the writer takes, and skips the silence written for
/// frames jackwave dropped itself (those are counted as drops, not dropouts).
extension DropoutCounter: FrameSink {
    package func take(_ frames: UnsafePointer<Float>, count: Int, at frame: Int64) { feed(frames, frames: count) }
    package func takeSilence(count: Int, at frame: Int64) { skip(frames: count) }
}
