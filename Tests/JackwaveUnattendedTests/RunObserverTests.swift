import Foundation
import JackwaveRecording
import JackwaveRunSupport
import JackwaveTestSupport
import JackwaveUnattended
import Testing

/// `RunObserver.poll`: the engine's counters become `--events` lines, each increase once.
@Suite("Run observer")
struct RunObserverTests {
    /// An observer writing its events to a fresh file; the file's path.
    static func observer() throws -> (RunObserver, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString).jsonl").path
        return (RunObserver(events: try EventLog(path: path), markers: MarkerBook()), path)
    }

    /// The events `observer` wrote so far (once its log has written them), one object per line.
    static func lines(_ path: String, of observer: RunObserver) throws -> [[String: Any]] {
        #expect(observer.events?.flush() == true)
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
        }
    }

    @Test("xruns, dropped frames and frames the server skipped each become one event with what was added, at the stream's frame")
    func countersBecomeEvents() throws {
        let (observer, path) = try Self.observer()
        let signals = EngineSignals()
        signals.streamFrames.store(96000, ordering: .relaxed)
        signals.xruns.add(2, ordering: .relaxed)
        signals.droppedFrames.add(480, ordering: .relaxed)
        signals.skippedFrames.add(1024, ordering: .relaxed)
        observer.poll(signals)
        let lines = try Self.lines(path, of: observer)
        #expect(lines.map { $0["event"] as? String } == ["xrun", "dropped", "skipped"])
        #expect(lines.element(at: 0)?["count"] as? Int == 2)
        #expect(lines.element(at: 1)?["frames"] as? Int == 480)
        #expect(lines.element(at: 2)?["frames"] as? Int == 1024)
        #expect(lines.allSatisfy { $0["frame"] as? Int == 96000 })
    }

    @Test("a counter that has not grown since the last pass writes nothing; one that has, only its increase")
    func onlyIncreases() throws {
        let (observer, path) = try Self.observer()
        let signals = EngineSignals()
        signals.skippedFrames.add(256, ordering: .relaxed)
        observer.poll(signals)
        observer.poll(signals)
        signals.skippedFrames.add(512, ordering: .relaxed)
        observer.poll(signals)
        let lines = try Self.lines(path, of: observer)
        #expect(lines.map { $0["event"] as? String } == ["skipped", "skipped"])
        #expect(lines.map { $0["frames"] as? Int } == [256, 512])
    }

    @Test("after a reconnect the new connection's counters count from zero again, on the run's timeline")
    func resetForReconnect() throws {
        let (observer, path) = try Self.observer()
        let first = EngineSignals()
        first.xruns.add(3, ordering: .relaxed)
        observer.poll(first)
        observer.beginConnection(timelineBase: 480000)
        let second = EngineSignals()
        second.streamFrames.store(1000, ordering: .relaxed)
        second.xruns.add(1, ordering: .relaxed)
        observer.poll(second)
        let lines = try Self.lines(path, of: observer)
        #expect(lines.map { $0["count"] as? Int } == [3, 1])
        #expect(lines.last?["frame"] as? Int == 481000)
    }
}
