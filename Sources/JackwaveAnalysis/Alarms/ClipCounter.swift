/// Clipping, counted per input: a clip is a run of `runLength` or more consecutive samples at
/// full scale (`AlarmSettings.fullScale`) on one input (Audacity's "Find Clipping" counts the
/// same way; 3 is its default). Each clip counts once, in the second of the timeline where it
/// reached `runLength`; each second with any clip is raised as one `clipping` event once it
/// has passed (or at `finish`). Fed frames in timeline order.
public struct ClipCounter: Sendable {
    public let channels: Int
    public let sampleRate: Int
    public let runLength: Int
    /// The run of full-scale samples each input is in now.
    private var runs: [Int]
    /// Clips per input in the second under way, and where that second starts.
    private var counts: [Int]
    private var second: Int64 = 0

    public init(channels: Int, sampleRate: Int, runLength: Int) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.runLength = max(1, runLength)
        runs = Array(repeating: 0, count: channels)
        counts = Array(repeating: 0, count: channels)
    }

    /// Takes `count` interleaved frames starting at timeline frame `start`.
    public mutating func add(_ frames: UnsafePointer<Float>, count: Int, start: Int64) -> [AlarmEvent] {
        var events: [AlarmEvent] = []
        let rate = Int64(sampleRate)
        for f in 0..<count {
            let frame = start + Int64(f)
            if frame / rate != second {
                if let event = closeSecond() { events.append(event) }
                second = frame / rate
            }
            for c in 0..<channels {
                if abs(frames[f * channels + c]) >= AlarmSettings.fullScale {
                    runs[c] += 1
                    if runs[c] == runLength { counts[c] += 1 }
                } else {
                    runs[c] = 0
                }
            }
        }
        return events
    }

    /// The last second's clips, at the end of the run.
    public mutating func finish() -> [AlarmEvent] { closeSecond().map { [$0] } ?? [] }

    private mutating func closeSecond() -> AlarmEvent? {
        let total = counts.reduce(0, +)
        defer { counts = Array(repeating: 0, count: channels) }
        return total > 0 ? .clipping(frame: second * Int64(sampleRate), count: total, perInput: counts) : nil
    }
}
