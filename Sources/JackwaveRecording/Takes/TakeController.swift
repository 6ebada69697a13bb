import JackwaveDSP
import Synchronization

/// The armed recording's decisions, on the writer thread: which frames of the run's
/// timeline go into a take, and which only into the pre-roll.
///
/// The writer hands it every frame in timeline order (audio and gap silence, from
/// `position` on); the block records the callback published after each block's audio tell
/// it each block's loudest peak and whether the transport rolled. A take starts at the first
/// frame of a block that starts it (a peak at the trigger level, or a rolling transport), so
/// the decision is sample-exact at block granularity; its file begins with the pre-roll (the
/// frames just before that block, at most `preRollFrames`, never from an earlier take) and
/// goes on, frame after frame, with nothing missing or repeated at the join. It ends
/// `stopAfterFrames` after the end of the last block that kept it going (a peak at the stop
/// level, or a rolling transport); the frames after that go back to the pre-roll.
public final class TakeController: TakeGate, @unchecked Sendable {
    public let settings: TakeSettings
    package let pipeline: RecordingPipeline
    let blocks: SPSCRing<BlockRecord>
    let history: PreRollBuffer
    /// The run's takes, across connections.
    public let ledger: TakeLedger
    /// This connection's frame 0 on the run's timeline.
    let timelineBase: Int64
    /// The next frame the writer hands over, in this connection's stream (server's rate).
    public private(set) var position: Int64 = 0
    /// The record of the block holding `position`, or the next one, if known.
    private var current: BlockRecord?
    /// The transport state of the last block seen (frames without a record keep it).
    private var lastRolling = false
    private var inTake = false
    /// The end of the last block that kept the take going.
    private var activeUntil: Int64 = 0

    /// What the status line shows, written by the writer thread after each hand-over. Each
    /// is a lone value (relaxed): the line may mix two passes' figures for one frame.
    public let phase = Atomic<Int>(TakePhase.armed.rawValue)
    /// The number (in the file names) of the take recording now, or of the last one.
    public let takeNumber = Atomic<Int>(0)
    /// Frames left before the take ends, while stopping.
    public let framesToStop = Atomic<Int>(0)
    /// Told on the writer thread as each take starts: its number, the timeline frame that
    /// started it (the trigger's block, or the first rolling cycle) and the pre-roll frames
    /// before it (`--events`' `trigger`).
    private let onTrigger: (@Sendable (_ number: Int, _ frame: Int64, _ preRoll: Int) -> Void)?

    /// The take logic for `pipeline`'s files, fed with records from `blocks`, for a
    /// connection whose frame 0 is `timelineBase` on the run's timeline. When the run's last
    /// connection ended inside a take (the server went away), this one goes on with it in its
    /// next piece from frame 0, its `--stop-after` counted from there. Allocates and locks
    /// the pre-roll now, before the run starts. Main thread.
    public init(settings: TakeSettings, pipeline: RecordingPipeline, blocks: SPSCRing<BlockRecord>, ledger: TakeLedger,
                timelineBase: Int64, onTrigger: (@Sendable (_ number: Int, _ frame: Int64, _ preRoll: Int) -> Void)?) {
        self.settings = settings
        self.pipeline = pipeline
        self.blocks = blocks
        self.ledger = ledger
        self.timelineBase = timelineBase
        self.onTrigger = onTrigger
        history = PreRollBuffer(capacity: settings.preRollFrames, channels: pipeline.files.spec.channels)
        if pipeline.files.openTake != nil && pipeline.beginSegment(atStreamFrame: 0) {
            inTake = true
            takeNumber.store(pipeline.files.startTake(), ordering: .relaxed)
            phase.store(TakePhase.stopping.rawValue, ordering: .relaxed)
        }
    }

    /// Frames from `from` on that block records cover: the writer takes no audio beyond
    /// them (its record is published after it, so audio seen without its record waits).
    package func coveredFrames(from: Int64) -> Int {
        let r = blocks.readableRegions()
        var end = current?.endFrame ?? from
        if r.secondCount > 0 {
            end = max(end, r.second[r.secondCount - 1].endFrame)
        } else if r.firstCount > 0 {
            end = max(end, r.first[r.firstCount - 1].endFrame)
        }
        return Int(max(0, end - from))
    }

    /// Takes `count` frames at `position`; false once a file could not be written.
    package func push(_ frames: UnsafePointer<Float>, count: Int) -> Bool {
        let channels = history.channels
        var done = 0
        while done < count {
            let block = block(at: position)
            let n = min(count - done, block.frames)
            guard handle(frames + done * channels, frames: n, block: block) else { return false }
            done += n
        }
        publish()
        ledger.decidedFrames.store(timelineBase + position, ordering: .releasing)
        return true
    }

    /// At the end of the connection: a take still open keeps what it has in its file, and
    /// stays open in the ledger and the files, so that a next connection goes on with it
    /// (the session ends it for good when the run ends). False if the file failed.
    package func finish() -> Bool {
        var ok = true
        if inTake {
            ok = pipeline.finishSegment() && pipeline.files.endSegment()
            if !ok { pipeline.recordFilesFailure() }
        }
        inTake = false
        publish()
        return ok
    }

    /// What is known about the frames from `p` on: up to the end of the block holding it
    /// (or up to its MMC command, which then starts the next stretch), or, with no record
    /// for `p` (a block lost with its audio), up to the next record.
    private func block(at p: Int64) -> Stretch {
        while current == nil || current!.endFrame <= p {
            let r = blocks.readableRegions(upTo: 1)
            guard r.count == 1 else {
                current = nil
                break
            }
            current = r.first.pointee
            blocks.commitRead(1)
        }
        guard let record = current, record.startFrame <= p else {
            let frames = current.map { Int($0.startFrame - p) } ?? Int.max
            return Stretch(frames: frames, peak: 0, rolling: lastRolling, starts: false, command: nil)
        }
        lastRolling = record.rolling
        var frames = Int(record.endFrame - p)
        var command: MachineControl?
        if let heard = record.command {
            let at = record.startFrame + Int64(record.commandOffset)
            if at == p { command = heard } else if at > p { frames = Int(at - p) }
        }
        return Stretch(frames: frames, peak: record.peak, rolling: record.rolling, starts: p == record.startFrame, command: command)
    }

    /// Frames from a position on that one decision covers.
    private struct Stretch {
        var frames: Int
        var peak: Float
        var rolling: Bool
        /// The stretch is its block's first.
        var starts: Bool
        /// An MMC command heard at the stretch's first frame.
        var command: MachineControl?
    }

    /// Whether a block starts a take (when none is open) or keeps one going.
    private func starts(peak: Float, rolling: Bool) -> Bool {
        switch settings.start {
        case let .level(level): peak >= level
        case .transport: rolling
        case .machineControl: false
        }
    }

    private func keepsGoing(peak: Float, rolling: Bool) -> Bool {
        switch settings.start {
        case .level: peak >= settings.stopLevel
        case .transport: rolling
        case .machineControl: false
        }
    }

    private func handle(_ frames: UnsafePointer<Float>, frames count: Int, block: Stretch) -> Bool {
        if settings.followsMachineControl { return follow(frames, frames: count, command: block.command) }
        if !inTake && block.starts && ledger.mayStart && starts(peak: block.peak, rolling: block.rolling) {
            guard beginTake() else { return false }
        }
        var inside = 0
        if inTake {
            if block.starts && keepsGoing(peak: block.peak, rolling: block.rolling) {
                activeUntil = position + Int64(block.frames)
            }
            let end = activeUntil + settings.stopAfterFrames
            inside = Int(max(0, min(Int64(count), end - position)))
            if inside > 0 {
                guard pipeline.push(frames, count: inside) else { return false }
                position += Int64(inside)
            }
            // The take ends only at a frame past its end that nothing kept going, so that a
            // block starting right at the end still continues it.
            if inside == count { return true }
            guard endTake() else { return false }
        }
        let rest = count - inside
        history.append(frames + inside * history.channels, frames: rest)
        position += Int64(rest)
        return true
    }

    /// MMC: a take starts at RECORD STROBE's frame and ends at RECORD EXIT's or STOP's,
    /// whatever the level; a strobe inside a take, or an exit outside one, changes nothing.
    private func follow(_ frames: UnsafePointer<Float>, frames count: Int, command: MachineControl?) -> Bool {
        switch command {
        case .recordStrobe? where !inTake && ledger.mayStart:
            guard beginTake() else { return false }
        case .recordExit?, .stop?:
            if inTake { guard endTake() else { return false } }
        default:
            break
        }
        if inTake {
            guard pipeline.push(frames, count: count) else { return false }
            // Past the position: the status line says "recording" until a command ends it.
            activeUntil = position + Int64(count) + 1
        } else {
            history.append(frames, frames: count)
        }
        position += Int64(count)
        return true
    }

    /// Starts the next take at the block at `position`: a segment from its pre-roll's first
    /// frame, its file, and the pre-roll written into it.
    private func beginTake() -> Bool {
        let preRoll = min(history.count, settings.preRollFrames)
        let first = position - Int64(preRoll)
        guard pipeline.beginSegment(atStreamFrame: first) else { return false }
        let number = pipeline.files.startTake()
        ledger.began(number, firstFrame: timelineBase + first, triggerFrame: timelineBase + position)
        inTake = true
        activeUntil = position
        takeNumber.store(number, ordering: .relaxed)
        onTrigger?(number, timelineBase + position, preRoll)
        var ok = true
        history.withLast(preRoll) { frames, count in
            if ok { ok = pipeline.push(frames, count: count) }
        }
        history.clear()
        return ok
    }

    /// Ends the open take here: the resampler's tail, its last file closed, the ledger told.
    private func endTake() -> Bool {
        let ok = pipeline.finishSegment() && pipeline.files.endTake()
        inTake = false
        ledger.ended(at: timelineBase + position)
        if !ok { pipeline.recordFilesFailure() }
        return ok
    }

    private func publish() {
        let end = activeUntil + settings.stopAfterFrames
        let phase: TakePhase = !inTake ? .armed : position < activeUntil ? .recording : .stopping
        self.phase.store(phase.rawValue, ordering: .relaxed)
        framesToStop.store(phase == .stopping ? Int(end - position) : 0, ordering: .relaxed)
    }
}
