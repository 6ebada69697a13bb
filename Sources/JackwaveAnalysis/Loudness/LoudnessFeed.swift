import JackwaveVocabulary
import Dispatch
import FoundationEssentials
import Glibc
import JackwaveDSP
import JackwaveLevelStream
import JackwaveLoudness
import JackwaveRunSupport
import Synchronization

/// The live loudness analysis (`--loudness`): one `LoudnessAnalyzer` on a thread of its own,
/// never the realtime callback, reporting 10 times a second for the whole run, across
/// reconnects, on the run's timeline.
///
/// Each connection's writer offers it frames (`offer`, `offerSilence`) by copying into this
/// feed's ring, and never waits: a full ring means the analysis fell behind, and it stops and
/// says so while the recording goes on. Stopping, not skipping, keeps every reading true:
/// after a gap the integrated loudness would silently leave audio out.
public final class LoudnessFeed: @unchecked Sendable {
    /// Readings per second of audio: BS.1770's momentary maximum needs at least 10.
    public static let readingsPerSecond = 10
    /// The offers ring holds at least this much audio, and at least the writer's own ring: a
    /// writer catching up after a stalled disk hands over up to its whole ring in one pass, and
    /// that is the writer's lag, not the analysis's.
    public static let offerSeconds = 4.0
    /// The engine's audio ring when only metering, in seconds: what the writer drains for
    /// this feed alone (locked memory, so no more than a few seconds).
    public static let meterRingSeconds = 2.0
    /// Sleep between passes when there is nothing to do, µs: often enough for a reading every
    /// 100 ms, with the meter's loudness at most ~0.15 s late.
    static let idleMicroseconds = 50_000

    public let channels: Int
    public let sampleRate: Int
    /// Frames between readings: `sampleRate / readingsPerSecond`.
    public let readingFrames: Int
    private let analyzer: LoudnessAnalyzer
    /// Where "fell behind" is said.
    private let messages: MessageQueue

    /// Where the offered frames wait for the analysis.
    private let ring: SPSCRing<Float>
    /// Where a connection's frames begin, in frames offered (`breakStream`): the main thread
    /// produces them between two connections' writers, the analysis thread consumes them.
    private let breaks = SPSCRing<Int64>(minimumCapacity: 16, width: 1)
    /// The next break the analysis thread has taken from `breaks`, if any.
    private var nextBreak: Int64?

    /// Producer side (the writer thread): frames offered so far, and whether an offer was
    /// refused (then every later one is, too).
    private var offered: Int64 = 0
    private var refused = false
    /// The producer has handed over its last frame. `.releasing`/`.acquiring`: the thread
    /// that sees it also sees every frame committed before it.
    private let inputDone = Atomic<Bool>(false)
    /// The analysis fell behind and stopped (set by either side; relaxed: a lone flag, and
    /// its message is posted by whoever set it).
    let behind = Atomic<Bool>(false)
    /// Whether the analysis fell behind (or was given up on) and stopped.
    public var hasStopped: Bool { behind.load(ordering: .relaxed) }
    /// Gives the analysis up (it did not finish in time): no more readings count.
    public func giveUp() { behind.store(true, ordering: .relaxed) }

    /// Readings not yet taken, when someone takes them (`keepsReadings`), and the latest.
    private let pending = Mutex<[LoudnessReading]>([])
    private let newest = Mutex<LoudnessReading?>(nil)
    /// Whether readings are queued for `takeReadings` (a level stream takes them); if not,
    /// only the latest is kept.
    public let keepsReadings: Bool

    /// Analysis thread state: frames measured, and where the next reading falls.
    private var analyzed: Int64 = 0
    private var nextReading: Int64
    private let wakeUp = DispatchSemaphore(value: 0)
    private let thread = WorkerThread(name: "jackwave-loud")
    /// Set by the thread as it ends (`.releasing`: its last reading is queued before).
    private let finishedFlag = Atomic<Bool>(false)

    /// An analysis of `channels` inputs at `sampleRate`, each weighted 1.0 (a JACK recorder's
    /// inputs are separate sources), fed by writers whose own rings hold `writerFrames`. Nil if
    /// libebur128 refuses the channels or the rate.
    public init?(channels: Int, sampleRate: Int, writerFrames: Int, keepsReadings: Bool, messages: MessageQueue) {
        let weighting = ChannelWeighting(channels: channels, positions: nil)
        guard sampleRate >= Self.readingsPerSecond,
              let analyzer = LoudnessAnalyzer(sampleRate: sampleRate, weighting: weighting) else { return nil }
        self.analyzer = analyzer
        self.channels = channels
        self.sampleRate = sampleRate
        self.keepsReadings = keepsReadings
        self.messages = messages
        readingFrames = sampleRate / Self.readingsPerSecond
        nextReading = Int64(readingFrames)
        // A writer that catches up after a stalled disk hands over up to its whole ring.
        ring = SPSCRing(minimumCapacity: max(writerFrames, Int(Self.offerSeconds * Double(sampleRate))), width: channels)
    }

    // MARK: Producer (the writer thread)

    /// Copies `count` interleaved frames for analysis, or refuses them all if they do not
    /// fit (the analysis has fallen behind: it stops, and says so once). Never waits.
    public func offer(_ frames: UnsafePointer<Float>, count: Int) {
        guard let regions = claim(count) else { return }
        regions.update(from: frames, width: channels)
        commit(count)
    }

    /// Offers `count` frames of silence (a gap the writer filled in the file).
    public func offerSilence(_ count: Int) {
        guard let regions = claim(count) else { return }
        regions.update(repeating: 0, width: channels)
        commit(count)
    }

    /// The frames offered from now on do not follow those before (a new connection, after the
    /// server came back): the analysis starts its filters afresh there. Main thread, while no
    /// writer runs (so `offered` is still).
    public func breakStream() {
        _ = [offered].withUnsafeBufferPointer { breaks.write($0) }
        wakeUp.signal()
    }

    /// No producer will offer more frames: the run has ended.
    public func inputEnded() {
        inputDone.store(true, ordering: .releasing)
        wakeUp.signal()
    }

    /// Room for `count` frames in our ring, or nil (and the analysis stopped) if there is none.
    private func claim(_ count: Int) -> RingRegions<Float>? {
        guard count > 0, !refused else { return nil }
        let regions = ring.writableRegions(upTo: count)
        guard regions.count == count else {
            refused = true
            fallBehind(at: offered)
            return nil
        }
        return regions
    }

    private func commit(_ count: Int) {
        ring.commitWrite(count)
        offered += Int64(count)
    }

    /// Stops the analysis for good, with one line saying when and why.
    private func fallBehind(at frame: Int64) {
        guard !behind.exchange(true, ordering: .relaxed) else { return }
        messages.post(Phrase(printf: "loudness analysis fell behind at %.3f s and stopped (the recording goes on; loudness columns are empty from there)",
                             Double(frame) / Double(sampleRate)))
    }

    // MARK: Consumer (the main thread)

    /// The readings made since the last call, oldest first (only when `keepsReadings`).
    public func takeReadings() -> [LoudnessReading] {
        pending.withLock { queue in defer { queue.removeAll() }; return queue }
    }

    /// The latest reading, if any.
    public var latest: LoudnessReading? { newest.withLock { $0 } }

    /// Whether the thread has made its last reading (after `inputEnded`).
    public var isFinished: Bool { finishedFlag.load(ordering: .acquiring) }

    /// Starts the thread (once, for the run).
    public func start() {
        thread.start { [self] in
            run()
            finishedFlag.store(true, ordering: .releasing)
        }
    }

    /// Waits up to `timeout` seconds for the thread to end; true once it has (or it never
    /// started).
    public func wait(timeout: Double) -> Bool { thread.wait(timeout: timeout) }

    // MARK: The analysis thread

    private func run() {
        while true {
            // Read the flag before the ring: frames committed before `inputEnded` are then
            // all visible below, and the last pass takes them.
            let ending = inputDone.load(ordering: .acquiring)
            let regions = ring.readableRegions()
            if !behind.load(ordering: .relaxed) {
                analyze(regions.first, count: regions.firstCount)
                analyze(regions.second, count: regions.secondCount)
            }
            ring.commitRead(regions.count)
            if ending && regions.count == 0 { break }
            if regions.count < readingFrames && !ending { _ = wakeUp.wait(timeout: .now() + .microseconds(Self.idleMicroseconds)) }
        }
        // The last reading at the very end, unless one fell there already.
        if !behind.load(ordering: .relaxed) && analyzed > nextReading - Int64(readingFrames) { publish() }
    }

    /// Measures `count` frames, reading at every `readingFrames` boundary of the timeline and
    /// starting the filters afresh where a connection begins.
    private func analyze(_ frames: UnsafeMutablePointer<Float>, count: Int) {
        var done = 0
        while done < count {
            if nextBreak == nil, breaks.readableCount > 0 {
                nextBreak = breaks.readableRegions(upTo: 1).first.pointee
                breaks.commitRead(1)
            }
            if let at = nextBreak, at <= analyzed {
                analyzer.restartFilters()
                nextBreak = nil
                continue
            }
            let piece = min(count - done, Int(nextReading - analyzed), nextBreak.map { Int($0 - analyzed) } ?? .max)
            analyzer.add(frames + done * channels, count: piece)
            analyzed += Int64(piece)
            done += piece
            if analyzed == nextReading {
                publish()
                nextReading += Int64(readingFrames)
            }
        }
    }

    /// Makes a reading of everything measured so far and hands it over.
    private func publish() {
        let recent = analyzer.takeRecentTruePeaks()
        let reading = LoudnessReading(
            frame: analyzed,
            columns: LoudnessColumns(
                momentary: Float(analyzer.momentary), shortTerm: Float(analyzer.shortTerm),
                integrated: Float(analyzer.integrated), range: Float(analyzer.loudnessRange),
                truePeaks: (0..<channels).map { Float(LoudnessSummary.decibels(analyzer.truePeak(channel: $0))) }),
            recentTruePeaks: recent.map { Float(LoudnessSummary.decibels($0)) })
        if keepsReadings { pending.withLock { $0.append(reading) } }
        newest.withLock { $0 = reading }
    }
}

/// The writer hands the analysis every frame it takes, and silence for frames dropped (the
/// meter reads what the file holds).
extension LoudnessFeed: FrameSink {
    package func take(_ frames: UnsafePointer<Float>, count: Int, at frame: Int64) { offer(frames, count: count) }
    package func takeSilence(count: Int, at frame: Int64) { offerSilence(count) }
}
