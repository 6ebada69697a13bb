import Dispatch
import JackwaveRunSupport
import Synchronization

/// The writer of a MIDI-only recording (`--record take.mid`), one per connection: with no
/// audio to follow, it follows the callback's position itself, and brings the file up to
/// date within the same crash bound as a sound file's header.
public final class MidiOnlyWriter: @unchecked Sendable {
    private let recorder: MidiRecorder
    private let signals: EngineSignals
    private let timelineBase: Int64
    /// A pass every 100 ms, a refresh every 250: well inside the half second a crash may hide.
    static let passMicroseconds = 100_000
    static let refreshEvery = 0.25
    private let thread = PollingThread(name: "jackwave-midi", passMicroseconds: passMicroseconds)
    /// When the file was last brought up to date (the thread's own).
    private var lastRefresh: UInt64 = 0

    public init(recorder: MidiRecorder, signals: EngineSignals, timelineBase: Int64) {
        self.recorder = recorder
        self.signals = signals
        self.timelineBase = timelineBase
    }

    public func start() {
        lastRefresh = DispatchTime.now().uptimeNanoseconds
        thread.start { [self] last in pass(last: last) }
    }

    /// Ends the thread after a last pass; waits up to `timeout` seconds; true once ended.
    public func stop(timeout: Double) -> Bool { thread.stop(timeout: timeout) }

    private func pass(last: Bool) {
        // `.acquiring`: pairs with the callback's `.releasing` store, so every event
        // before this position is in the ring.
        recorder.reached(timelineBase + Int64(signals.streamFrames.load(ordering: .acquiring)))
        let now = DispatchTime.now().uptimeNanoseconds
        if last || Double(now - lastRefresh) / 1e9 >= Self.refreshEvery {
            recorder.refresh()
            lastRefresh = now
        }
    }
}
