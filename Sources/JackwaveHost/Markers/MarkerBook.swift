import Synchronization

/// The markers dropped during a run, by any thread (the terminal's `m`, a control
/// interface): numbered from 1 in the order dropped, each at a frame of the run's timeline.
///
/// Bounded: a remote can drop markers as fast as it sends datagrams, and each becomes a cue
/// point written at the end (libsndfile's cue list is sized by an `int`: 7.7 million of them
/// trapped jackwave at the end of the run, and the hooks never ran).
public final class MarkerBook: Sendable {
    /// Markers one connection keeps: a marker every second for almost three hours, and a
    /// cue chunk of 240 kB.
    public static let maximumMarkers = 10_000
    /// The longest label (UTF-8 bytes) a marker may carry (`/jackwave/marker LABEL`).
    public static let maximumLabelBytes = 256

    private let frames = Mutex<[Int64]>([])

    public init() {}

    /// Records a marker at `frame`; returns its number, or nil once `maximumMarkers` are kept.
    public func drop(atFrame frame: Int64) -> Int? {
        frames.withLock { list in
            guard list.count < Self.maximumMarkers else { return nil }
            list.append(frame)
            return list.count
        }
    }

    /// Every marker's frame, in the order dropped (marker n is at index n - 1).
    public var all: [Int64] { frames.withLock { $0 } }
}
