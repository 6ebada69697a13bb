/// Dead air: the feed is silent while every input stays below the level (a mono source on one
/// channel of a stereo feed is not silence). A silence of `minimumFrames` or more raises
/// `silenceStarted` once it has lasted that long, and `silenceEnded` when it ends. Fed spans
/// of the timeline in order, with their first and last loud frames; a gap in the timeline
/// (frames the server skipped) is neither, so a silence goes on across it.
public struct SilenceTracker: Sendable {
    public let minimumFrames: Int64
    /// The first frame of the silence under way, nil while loud.
    public private(set) var silentSince: Int64?
    /// Whether `silenceStarted` has been raised for it.
    public private(set) var raised = false

    public init(minimumFrames: Int64) { self.minimumFrames = max(1, minimumFrames) }

    /// Takes `count` frames from `start`; `loud` gives the first and last loud ones (offsets
    /// into the span), nil if all are silent. Returns what it raised, in order.
    public mutating func add(start: Int64, count: Int, loud: (first: Int, last: Int)?) -> [AlarmEvent] {
        var events: [AlarmEvent] = []
        let end = start + Int64(count)
        guard let loud else {
            if silentSince == nil { silentSince = start }
            raiseIfLong(upTo: end, into: &events)
            return events
        }
        if silentSince != nil {
            let firstLoud = start + Int64(loud.first)
            raiseIfLong(upTo: firstLoud, into: &events)
            if raised, let since = silentSince { events.append(.silenceEnded(frame: firstLoud, since: since)) }
        }
        raised = false
        let afterLast = start + Int64(loud.last) + 1
        silentSince = afterLast < end ? afterLast : nil
        if silentSince != nil { raiseIfLong(upTo: end, into: &events) }
        return events
    }

    /// The silence under way has reached `minimumFrames` by `end`: raised once.
    private mutating func raiseIfLong(upTo end: Int64, into events: inout [AlarmEvent]) {
        guard !raised, let since = silentSince, end - since >= minimumFrames else { return }
        raised = true
        events.append(.silenceStarted(frame: since + minimumFrames, since: since))
    }
}
