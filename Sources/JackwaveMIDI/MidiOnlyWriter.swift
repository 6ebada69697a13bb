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
    private let thread = WorkerThread(name: "jackwave-midi")
    private let stopping = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)
    /// A pass every 100 ms, a refresh every 250: well inside the half second a crash may hide.
    static let passMicroseconds = 100_000
    static let refreshEvery = 0.25

    public init(recorder: MidiRecorder, signals: EngineSignals, timelineBase: Int64) {
        self.recorder = recorder
        self.signals = signals
        self.timelineBase = timelineBase
    }

    public func start() {
        thread.start { [self] in run() }
    }

    /// Ends the thread after a last pass; waits up to `timeout` seconds; true once ended.
    public func stop(timeout: Double) -> Bool {
        stopping.store(true, ordering: .relaxed)
        wakeUp.signal()
        return thread.wait(timeout: timeout)
    }

    private func run() {
        var lastRefresh = DispatchTime.now().uptimeNanoseconds
        while true {
            let last = stopping.load(ordering: .relaxed)
            // `.acquiring`: pairs with the callback's `.releasing` store, so every event
            // before this position is in the ring.
            recorder.reached(timelineBase + Int64(signals.streamFrames.load(ordering: .acquiring)))
            let now = DispatchTime.now().uptimeNanoseconds
            if last || Double(now - lastRefresh) / 1e9 >= Self.refreshEvery {
                recorder.refresh()
                lastRefresh = now
            }
            if last { return }
            _ = wakeUp.wait(timeout: .now() + .microseconds(Self.passMicroseconds))
        }
    }
}
