import JackwaveHost
import Synchronization
import Testing

/// What each OSC message does when no connection runs (before frame 0, or while
/// `--reconnect` waits): no server needed.
@Suite("Remote control")
struct RemoteControlTests {
    final class Stops: Sendable {
        let count = Atomic<Int>(0)
    }

    @Test("/jackwave/stop asks for a stop, once per message")
    func stop() {
        let stops = Stops()
        let remote = RemoteControl(control: RunControl(tone: nil, records: true),
                                   requestStop: { stops.count.add(1, ordering: .relaxed) })
        #expect(remote.handle("/jackwave/stop", []) == nil)
        #expect(remote.handle("/jackwave/stop", []) == nil)
        #expect(stops.count.load(ordering: .relaxed) == 2)
    }

    @Test("/jackwave/status while no connection runs says waiting, with no file and zero counts")
    func statusWaiting() {
        let remote = RemoteControl(control: RunControl(tone: nil, records: true), requestStop: {})
        let reply = remote.handle("/jackwave/status", [])
        #expect(reply?.path == "/jackwave/status")
        #expect(reply?.arguments == [.string("waiting"), .string(""), .int(0), .int(0), .int(0), .int(0)])
    }

    @Test("an unknown path, or a known one with the wrong arguments, is one line and does nothing",
          arguments: [("/jackwave/bogus", [OscArgument]()), ("/jackwave/stop", [.int(1)]),
                      ("/jackwave/tone/frequency", [.string("loud")]), ("/jackwave/split", [.float(2)])])
    func malformed(path: String, arguments: [OscArgument]) {
        let stops = Stops()
        let remote = RemoteControl(control: RunControl(tone: nil, records: true),
                                   requestStop: { stops.count.add(1, ordering: .relaxed) })
        #expect(remote.handle(path, arguments) == nil)
        let lines = remote.lines.drain()
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains(path) == true)
        #expect(stops.count.load(ordering: .relaxed) == 0)
    }

    @Test("/jackwave/marker while nothing records is one line, no reply and no marker")
    func markerWithoutRecording() {
        let remote = RemoteControl(control: RunControl(tone: nil, records: true), requestStop: {})
        #expect(remote.handle("/jackwave/marker", [.string("verse")]) == nil)
        let lines = remote.lines.drain()
        #expect(lines == ["OSC: /jackwave/marker: nothing is being recorded (ignored)"])
    }
}
