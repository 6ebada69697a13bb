import Synchronization

/// The markers dropped during a run, by any thread (the terminal's `m`, a control
/// interface): numbered from 1 in the order dropped, each at a frame of the run's timeline.
public final class MarkerBook: Sendable {
    private let frames = Mutex<[Int64]>([])

    public init() {}

    /// Records a marker at `frame`; returns its number.
    public func drop(atFrame frame: Int64) -> Int {
        frames.withLock { list in
            list.append(frame)
            return list.count
        }
    }

    /// Every marker's frame, in the order dropped (marker n is at index n - 1).
    public var all: [Int64] { frames.withLock { $0 } }
}
