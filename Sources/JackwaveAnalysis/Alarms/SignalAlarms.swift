import Glibc
import JackwaveRunSupport
import JackwaveSoundFiles
import Synchronization

/// Dead air and overload (`--silence`, `--clip`), never in the realtime callback: fed the
/// frames the writer wrote (`add(frames:…)`, exact to the frame, both alarms) or the level
/// ring's blocks (`add(blockStart:…)`, dead air only, exact to the block).
///
/// Dead air is judged over all inputs together (one silent channel of a live feed is not
/// dead air), clipping per input. In a run, each connection's writer feeds it in turn, one at
/// a time, so the trackers need no lock; `state` is published under one for the main and OSC
/// threads.
public final class SignalAlarms: @unchecked Sendable {
    public let settings: AlarmSettings
    public let channels: Int
    public let sampleRate: Int
    private var silence: SilenceTracker?
    private var clips: ClipCounter?
    private let events: (AlarmEvent) -> Void
    /// The latest clipping second's count, for `state`.
    private var lastClipping: (frame: Int64, count: Int)?
    /// `state` as the feeding thread last left it, for the others.
    private let published = Mutex(AlarmState(silentSince: nil, lastClipping: nil))

    public init(settings: AlarmSettings, channels: Int, sampleRate: Int, events: @escaping (AlarmEvent) -> Void) {
        self.settings = settings
        self.channels = channels
        self.sampleRate = sampleRate
        self.events = events
        if settings.silenceLevel != nil {
            silence = SilenceTracker(minimumFrames: Int64((settings.silenceSeconds * Double(sampleRate)).rounded()))
        }
        if let run = settings.clipSamples { clips = ClipCounter(channels: channels, sampleRate: sampleRate, runLength: run) }
    }

    /// Takes `count` interleaved frames from timeline frame `start`.
    public func add(frames: UnsafePointer<Float>, count: Int, start: Int64) {
        guard count > 0 else { return }
        if let level = settings.silenceLevel, silence != nil {
            // Runs of silent and of loud frames, each handed on whole: exact to the frame, with
            // the silences between loud frames of one call as much as those across calls.
            let loud = { (f: Int) -> Bool in
                for c in 0..<self.channels where abs(frames[f * self.channels + c]) >= level { return true }
                return false
            }
            var f = 0
            while f < count {
                var g = f
                while g < count && !loud(g) { g += 1 }
                if g > f { report(silence!.add(start: start + Int64(f), count: g - f, loud: nil)) }
                guard g < count else { break }
                var h = g
                while h < count && loud(h) { h += 1 }
                report(silence!.add(start: start + Int64(g), count: h - g, loud: (0, h - g - 1)))
                f = h
            }
        }
        if clips != nil { report(clips!.add(frames, count: count, start: start)) }
        publish()
    }

    /// Takes a level block: `frameCount` frames from `blockStart` whose inputs peaked at
    /// `peaks` (dead air only: a block's peak cannot tell runs of samples).
    public func add(blockStart: Int64, frameCount: Int, peaks: [Float]) {
        guard let level = settings.silenceLevel, silence != nil, frameCount > 0 else { return }
        let loud = peaks.contains { $0 >= level }
        report(silence!.add(start: blockStart, count: frameCount, loud: loud ? (0, frameCount - 1) : nil))
        publish()
    }

    /// The end of the run: the last second's clips. A silence under way is left as it is (no
    /// `silence_ended`: it did not end while recording).
    public func finish() {
        if clips != nil { report(clips!.finish()) }
        publish()
    }

    /// What a meter or `/jackwave/status` shows (any thread).
    public var state: AlarmState { published.withLock { $0 } }

    private func publish() {
        let now = AlarmState(silentSince: silence?.raised == true ? silence?.silentSince : nil, lastClipping: lastClipping)
        published.withLock { $0 = now }
    }

    private func report(_ raised: [AlarmEvent]) {
        for event in raised {
            if case let .clipping(frame, count, _) = event { lastClipping = (frame, count) }
            events(event)
        }
    }
}

/// The alarms' state now: dead air under way (since which frame), and the last second that
/// clipped.
public struct AlarmState: Sendable, Equatable {
    public let silentSince: Int64?
    public let lastClipping: (frame: Int64, count: Int)?

    /// How long clipping stays shown after its last second.
    public static let clippingShownSeconds = 3

    /// For the status line, at timeline frame `now`: "dead air 35.2 s", "clipping 12/s", both,
    /// or nil when neither is under way.
    public func text(now: Int64, sampleRate: Int) -> String? {
        var parts: [String] = []
        if let since = silentSince { parts.append(String(printf: "dead air %.1f s", Double(now - since) / Double(sampleRate))) }
        if let count = clipsShown(now: now, sampleRate: sampleRate) { parts.append("clipping \(count)/s") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// Seconds of dead air under way at `now` (0 when none), for `/jackwave/status`.
    public func silentSeconds(now: Int64, sampleRate: Int) -> Double {
        silentSince.map { Double(now - $0) / Double(sampleRate) } ?? 0
    }

    /// The clips of the last clipping second, if it ended within `clippingShownSeconds` of `now`.
    public func clipsShown(now: Int64, sampleRate: Int) -> Int? {
        guard let last = lastClipping, now - last.frame < Int64((1 + Self.clippingShownSeconds) * sampleRate) else { return nil }
        return last.count
    }

    public static func == (a: AlarmState, b: AlarmState) -> Bool {
        a.silentSince == b.silentSince && a.lastClipping?.frame == b.lastClipping?.frame && a.lastClipping?.count == b.lastClipping?.count
    }
}

/// The alarms watch the sources' frames; silence written for dropped frames is not a
/// source's dead air (the drop is reported as such), so they pass over it.
extension SignalAlarms: FrameSink {
    package func take(_ frames: UnsafePointer<Float>, count: Int, at frame: Int64) { add(frames: frames, count: count, start: frame) }
    package func takeSilence(count: Int, at frame: Int64) {}
}
