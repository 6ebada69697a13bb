import Synchronization

/// The markers dropped during a run, by any thread (the terminal's `m`, SIGUSR1,
/// `/jackwave/marker`): numbered from 1 in the order dropped, each at a frame of the run's
/// timeline, and each claimed by the file that holds its frame as that file is finalized.
///
/// A marker's frame is read inside the book's lock, and a file claims its markers inside it
/// too, once the writer has written the file's last frame: a marker dropped after a claim
/// was read after the callback had gone past that file, so it never belongs to it.
///
/// Bounded: a remote can drop markers as fast as it sends datagrams, and each becomes a cue
/// point (libsndfile's cue list is sized by an `int`: 7.7 million of them trapped jackwave at
/// the end of a run, and the hooks never ran).
public final class MarkerBook: Sendable {
    /// Markers a run keeps: a marker every second for almost three hours, a cue chunk of 240 kB.
    public static let maximumMarkers = 10_000
    /// The longest label (UTF-8 bytes) a marker may carry (`/jackwave/marker LABEL`).
    public static let maximumLabelBytes = 256

    private struct State {
        var frames: [Int64] = []
        /// Markers before this index are claimed, or in `orphans`.
        var settled = 0
        /// Markers that fell before a file's first frame: outside every file (armed, between takes).
        var orphans: [Int] = []
    }
    private let state = Mutex(State())

    public init() {}

    /// Records a marker at the frame `frame()` reads now (the callback's position on the
    /// run's timeline); returns its number and frame, or nil once the book is full.
    public func drop(at frame: () -> Int64) -> (number: Int, frame: Int64)? {
        state.withLock { s in
            guard s.frames.count < Self.maximumMarkers else { return nil }
            let at = frame()
            // In frame order: a MIDI marker (`--midi-marker`) comes from the writer's side,
            // a little behind a key pressed at the same moment. Never before a claim.
            var index = s.frames.count
            while index > s.settled && s.frames[index - 1] > at { index -= 1 }
            s.frames.insert(at, at: index)
            return (index + 1, at)
        }
    }

    /// The markers in `first ..< end` on the timeline, as (number, frame), for the file that
    /// holds those frames; markers before `first` not yet claimed belong to no file.
    public func claim(from first: Int64, to end: Int64) -> [(number: Int, frame: Int64)] {
        state.withLock { s in
            while s.settled < s.frames.count && s.frames[s.settled] < first {
                s.orphans.append(s.settled + 1)
                s.settled += 1
            }
            var claimed: [(Int, Int64)] = []
            while s.settled < s.frames.count && s.frames[s.settled] < end {
                claimed.append((s.settled + 1, s.frames[s.settled]))
                s.settled += 1
            }
            return claimed
        }
    }

    /// The markers no file claimed (dropped outside every take, or after the last frame
    /// written), as (number, frame). Call once the files are closed.
    public var unclaimed: [(number: Int, frame: Int64)] {
        state.withLock { s in
            (s.orphans + Array((s.settled..<s.frames.count).map { $0 + 1 })).map { ($0, s.frames[$0 - 1]) }
        }
    }

    /// How many markers were dropped.
    public var count: Int { state.withLock { $0.frames.count } }
}
