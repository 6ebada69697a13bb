import Glibc
import JackwaveLevelStream

/// Everything the live meter shows, updated block by block from the level ring and
/// rendered by `MeterRenderer`. Pure state: time is *stream* time (frames / rate), not
/// the wall clock, so the same blocks always give the same picture (and tests need no
/// sleeping).
struct MeterState {
    /// The bottom of the bar scale: −60 dBFS. Quieter is shown as an empty bar.
    static let floorDecibels = -60.0
    /// How long a peak-hold mark stays put before it starts to fall.
    static let holdSeconds = 1.5
    /// How fast the bar (and, after its hold time, the hold mark) falls. 20 dB/s: a quiet
    /// passage after a loud one shows within a second or two, and between two 40 ms
    /// frames the bar moves under 1 dB, so it glides instead of flickering.
    static let fallDecibelsPerSecond = 20.0
    /// One waveform-strip column per 50 ms of stream: 20 columns a second, so an
    /// 80-column strip shows the last 4 s (Voice Memos shows a few seconds too). A column
    /// spans several JACK periods and at least one 40 ms frame, so about one column enters
    /// per redraw and the strip scrolls steadily instead of jumping.
    static let stripSliceSeconds = 0.05
    /// Columns kept: wider than any terminal the strip is drawn on.
    static let stripCapacity = 1024

    let sampleRate: Int
    /// Stream time at the end of the latest block, in seconds.
    private(set) var now: Double = 0
    var channels: [ChannelLevel]
    /// Strip columns, oldest first: the peak (linear, maximum over channels) of each slice.
    private(set) var strip: [Float] = []
    private var stripAggregator: LevelAggregator
    private var stripRows: [LevelRow] = []

    /// The live loudness, when the run measures it (`--loudness`).
    var loudness: MeterLoudness?

    init(channels: Int, sampleRate: Int, loudnessTarget: Double? = nil) {
        self.sampleRate = sampleRate
        loudness = loudnessTarget.map { MeterLoudness(target: $0, channels: channels) }
        self.channels = Array(repeating: ChannelLevel(), count: channels)
        stripAggregator = LevelAggregator(
            channels: channels,
            intervalFrames: LevelAggregator.intervalFrames(milliseconds: Self.stripSliceSeconds * 1000,
                                                          sampleRate: sampleRate))
    }

    /// Takes one block's peaks (one per channel): moves the bars, holds and clip marks,
    /// and adds the strip columns the block completes.
    mutating func feed<Peaks: Collection<Float>>(startFrame: Int64, frameCount: Int, peaks: Peaks) {
        let end = Double(startFrame + Int64(frameCount)) / Double(sampleRate)
        let elapsed = max(0, end - now)
        now = max(now, end)
        for (c, peak) in peaks.enumerated() {
            channels[c].take(peak: peak, elapsed: elapsed, now: now)
        }
        stripAggregator.add(startFrame: startFrame, frameCount: frameCount, peaks: peaks, into: &stripRows)
        for row in stripRows { pushStripColumn(row.peaks.max() ?? 0) }
        stripRows.removeAll(keepingCapacity: true)
    }

    /// Appends one strip column (the newest, shown at the right), forgetting the oldest
    /// beyond `stripCapacity`.
    mutating func pushStripColumn(_ peak: Float) {
        strip.append(peak)
        if strip.count > Self.stripCapacity { strip.removeFirst(strip.count - Self.stripCapacity) }
    }

    /// Linear peak to dBFS (−∞ for silence).
    static func decibels(_ peak: Float) -> Double {
        peak > 0 ? 20 * log10(Double(peak)) : -.infinity
    }
}

/// One input's meter: the bar level, the peak-hold mark and the sticky clip flag.
struct ChannelLevel: Equatable {
    /// The bar, in dBFS: jumps up to each new peak, falls at `fallDecibelsPerSecond`.
    var levelDecibels = -Double.infinity
    /// The held peak in dBFS and the stream time it was set.
    var holdDecibels = -Double.infinity
    var holdSince = 0.0
    /// Some sample reached full scale (|x| ≥ 1.0) since the run began. Never cleared.
    var clipped = false

    /// Where the hold mark is at stream time `now`: the held peak for `holdSeconds`, then
    /// falling at `fallDecibelsPerSecond`, never below the bar.
    func displayedHold(at now: Double) -> Double {
        let age = now - holdSince
        let fallen = age <= MeterState.holdSeconds
            ? holdDecibels
            : holdDecibels - MeterState.fallDecibelsPerSecond * (age - MeterState.holdSeconds)
        return max(fallen, levelDecibels)
    }

    /// One block's peak, `elapsed` seconds after the previous block, ending at `now`.
    mutating func take(peak: Float, elapsed: Double, now: Double) {
        let db = MeterState.decibels(peak)
        levelDecibels = max(db, levelDecibels - MeterState.fallDecibelsPerSecond * elapsed)
        if db >= displayedHold(at: now) && db > -.infinity {
            holdDecibels = db
            holdSince = now
        }
        if peak >= 1 { clipped = true }
    }
}
