import JackwaveSoundFiles

/// One file of a recording, as the files tell their observer: its name, its number, and
/// where it lies on the run's timeline (frames received at the server's rate since the run's
/// frame 0, counted across reconnects).
public struct RecordedFile: Sendable, Equatable {
    public let path: String
    /// Its take (1…, armed runs) and its piece (1…): what its name's numbers say.
    public let take: Int
    public let piece: Int
    /// Its first frame on the run's timeline.
    public let firstFrame: Int64
    /// The frame after its last, on the run's timeline (at `firstFrame` while it is open).
    public var endFrame: Int64
    /// Frames in the file, at the file's rate.
    public var frames: Int64
    /// False if closing it failed (it then holds what was written before).
    public var ok: Bool
    /// Of `frames`, those a neighbouring file holds too (`--overlap`: its lead-in and its
    /// tail), at the file's rate; 0 without overlap.
    public var sharedFrames: Int64 = 0
    /// The timecode of its first frame and of the frame after its last (`--ltc`), nil when
    /// no code was locked there; whether the code jumped inside it.
    public var startTimecode: String?
    public var endTimecode: String?
    public var timecodeJumped = false
    /// With a timecode, why the file took the wall clock's time instead, if it did.
    public var timecodeMissing: TimecodeMissing?
    /// What the companion (`--midi`) gave for its end: its finisher waits on it
    /// (`RecordingCompanion.waitUntilFinished`) before the file's `--on-close` runs; nil
    /// without a companion.
    public var companionTicket: Int?

    public init(path: String, take: Int, piece: Int, firstFrame: Int64, endFrame: Int64, frames: Int64, ok: Bool) {
        self.path = path
        self.take = take
        self.piece = piece
        self.firstFrame = firstFrame
        self.endFrame = endFrame
        self.frames = frames
        self.ok = ok
    }
}

/// Told by `RecordingFiles` (on the writer thread, or the main thread for a run's first
/// file) when a file gets its first frame and when it is finalized.
public protocol RecordingFilesObserver: AnyObject, Sendable {
    func fileStarted(_ file: RecordedFile)
    func fileClosed(_ file: RecordedFile)
}

/// The files a run has written so far, for its summary: how many, the first and the last.
/// Bounded whatever the run's length (a year of one-second pieces keeps three values).
public struct FileTally: Sendable, Equatable {
    public private(set) var count = 0
    public private(set) var first: String?
    public private(set) var last: String?
    /// `--ltc`: the first file's first timecode, the last file's end, and the files that
    /// span a jump in the code.
    public internal(set) var firstTimecode: String?
    public internal(set) var lastTimecode: String?
    public internal(set) var filesSpanningJumps = 0
    /// `--ltc`: the files that took the wall clock's time, by why.
    public internal(set) var filesWithoutCode = 0
    public internal(set) var filesBeforeReader = 0

    public init() {}

    mutating func add(_ path: String) {
        count += 1
        if first == nil { first = path }
        last = path
    }

    /// `take.wav`, or `take-001.wav … take-012.wav (12 files)`; nil when none was made.
    public var names: String? {
        guard let first, let last else { return nil }
        return count > 1 ? "\(first) … \(last) (\(count) files)" : first
    }
}
