import JackwaveSoundFiles
import Synchronization

/// The file or files a recording goes to: one file, or with `--split` a numbered sequence
/// cut at exact frame counts, each with its own `bext` start time.
///
/// The first file is opened by the main thread before the run (so a file that cannot be
/// created fails before anything starts); every later one, and every write, happens on the
/// writer thread.
public final class RecordingFiles: @unchecked Sendable {
    public let spec: RecordingSpec
    var current: SoundFile?
    /// Frames in the current file.
    var framesInPiece: Int64 = 0
    /// Frames in the files before the current one.
    var framesBefore: Int64 = 0
    var pieceNumber: Int
    /// With takes: the current take's first frame on the run's timeline, for its `bext`.
    var takeStartFrame: Int64?
    /// With takes: the last take's number (0 before the first).
    var lastTakeNumber = 0
    /// Wall-clock time of the run's frame 0: set by the main thread as the run starts, read by
    /// the writer thread before each file's first write.
    private let start = Mutex<WallClockTime?>(nil)
    private let written = Mutex<[String]>([])
    /// Why the last write failed.
    public private(set) var failure: String?
    /// Told of each file's first frame and of its closing (`--events`, `--on-close`). Set
    /// before the writer starts.
    public var observer: (any RecordingFilesObserver)?
    /// A cut asked for from outside (`/jackwave/split`): the frame, at the file's rate and
    /// counted from the recording's first, where the next file begins; -1 for none. Stored
    /// by the remote-control thread, read and cleared by the writer (relaxed: a lone value,
    /// cleared by compare-exchange so a newer request is never lost).
    public let cutRequest = Atomic<Int64>(-1)

    /// Opens the first file (with takes, none: each take opens its own, see `startTake`).
    public init(spec: RecordingSpec) throws(SoundFileError) {
        self.spec = spec
        pieceNumber = spec.firstPiece
        lastTakeNumber = spec.firstPiece - 1
        current = spec.takes ? nil : try open(piece: spec.firstPiece)
    }

    /// Records when frame 0 was, for the `bext` chunks. Call before the run starts.
    public func setStart(_ time: WallClockTime) { start.withLock { $0 = time } }

    /// When frame 0 was, once the run has started.
    public var startTime: WallClockTime? { start.withLock { $0 } }

    /// Frames in every file so far (writer thread).
    public var framesWritten: Int64 { framesBefore + framesInPiece }

    /// The files created so far, in order (thread-safe). A later piece is created only when
    /// a frame is there for it.
    public var paths: [String] { written.withLock { $0 } }

    /// Writes `count` interleaved frames at the file rate, starting new pieces where the
    /// split falls; false (and `failure`) on a write error or a full 4 GB container.
    public func write(_ frames: UnsafePointer<Float>, count: Int) -> Bool {
        var done = 0
        while done < count {
            guard let file = current else { return fail("\(spec.path(ofPiece: pieceNumber)): file is closed") }
            if let split = spec.splitFrames, framesInPiece == split {
                guard next() else { return false }
                continue
            }
            let cut = cutRequest.load(ordering: .relaxed)
            if cut >= 0 && cut <= framesWritten {
                _ = cutRequest.compareExchange(expected: cut, desired: -1, ordering: .relaxed)
                if framesInPiece > 0 { guard next() else { return false } }
                continue
            }
            var n = count - done
            if let split = spec.splitFrames { n = min(n, Int(split - framesInPiece)) }
            if cut > framesWritten { n = min(n, Int(cut - framesWritten)) }
            if let limit = spec.maximumFramesPerFile, framesInPiece + Int64(n) > limit {
                return fail("\(file.path): a \(spec.format.name) file ends at 4 GB; stopped (use .wav, which becomes RF64, or --split)")
            }
            if framesInPiece == 0 { begin(file) }
            let wrote = file.write(frames + done * spec.channels, count: n)
            framesInPiece += Int64(wrote)
            done += wrote
            if wrote < n { return fail("\(file.path): write failed: \(file.lastError)") }
            file.keepSpaceReserved()
        }
        return true
    }

    /// Brings the current file's header up to date (not before its first frame: the `bext`
    /// chunk must come first; never for Ogg, see `SoundFormat.refreshesHeader`).
    public func updateHeader() {
        if framesInPiece > 0 && spec.format.refreshesHeader { current?.updateHeader() }
    }

    /// Closes the current file; false (and `failure`) if closing it failed. Safe to call twice.
    @discardableResult
    public func close() -> Bool {
        let path = current?.path
        let error = current?.close()
        current = nil
        if let path { observer?.fileClosed(path: path, frames: framesInPiece, endFileFrame: framesBefore + framesInPiece, ok: error == nil) }
        if let error, let path { return fail("\(path): closing failed: \(error)") }
        return true
    }

    /// Before a file's first frame: its `bext` chunk.
    private func begin(_ file: SoundFile) {
        observer?.fileStarted(path: file.path, atFileFrame: framesBefore)
        guard spec.format.carriesBroadcastInfo else { return }
        let t0 = startTime ?? WallClockTime.now()
        file.setBroadcastInfo(BroadcastInfo(start: t0, offset: takeStartFrame ?? framesBefore, sampleRate: spec.fileRate))
    }

    /// Closes the full piece and opens the next.
    private func next() -> Bool {
        guard close() else { return false }
        framesBefore += framesInPiece
        framesInPiece = 0
        pieceNumber += 1
        do throws(SoundFileError) {
            current = try open(piece: pieceNumber)
            return true
        } catch {
            return fail(error.message)
        }
    }

    func open(piece: Int) throws(SoundFileError) -> SoundFile {
        let file = try SoundFile(writingTo: spec.path(ofPiece: piece), format: spec.formatWord, channels: spec.channels,
                                 sampleRate: spec.fileRate, rf64AutoDowngrade: spec.format.downgradesToWAV,
                                 policy: spec.creationPolicy)
        // Separate inputs, not a 5.1 or 7.1 mix: see `SeparateInputsLayout`.
        if let map = SeparateInputsLayout.channelMap(channels: spec.channels, format: spec.formatWord) { file.setChannelMap(map) }
        written.withLock { $0.append(file.path) }
        return file
    }

    func fail(_ message: String) -> Bool {
        failure = message
        return false
    }
}
