import JackwaveHost
import JackwaveUnattended
import Synchronization
import JackwaveTestSupport
import Testing

/// What each OSC message does when no connection runs (before frame 0, or while
/// `--reconnect` waits): no server needed.
@Suite("Remote control")
struct RemoteControlTests {
    final class Stops: Sendable {
        let count = Atomic<Int>(0)
    }

    @Test("/jackwave/stop asks for a stop once: a second one is said and never skips the drain")
    func stop() {
        let stops = Stops()
        let remote = RemoteControl(control: RunControl(tone: nil, records: true),
                                   requestStop: { stops.count.add(1, ordering: .relaxed) })
        #expect(remote.handle("/jackwave/stop", []) == nil)
        #expect(remote.handle("/jackwave/stop", []) == nil)
        #expect(stops.count.load(ordering: .relaxed) == 1)
        #expect(remote.lines.drain() == ["OSC: stop",
                                         "OSC: stop already asked for (a remote stop always drains the buffer; Ctrl-C twice stops at once)"])
    }

    @Test("/jackwave/status while no connection runs replies at a reply path: waiting, with no file, zero counts and no alarm")
    func statusWaiting() {
        let remote = RemoteControl(control: RunControl(tone: nil, records: true), requestStop: {})
        let reply = remote.handle("/jackwave/status", [])
        #expect(reply?.path == "/jackwave/reply/status")
        // state, file, frames, xruns, dropped, take, dead air seconds, clips, then MIDI events,
        // MIDI events lost and the last MMC command, the timecode and its state.
        #expect(reply?.arguments == [.string("waiting"), .string(""), .int(0), .int(0), .int(0), .int(0), .float(0), .int(0),
                                     .int(0), .int(0), .string(""), .string(""), .string("")])
    }

    @Test("an unknown path, or a known one with the wrong arguments, is one line and does nothing",
          arguments: [("/jackwave/bogus", [OscArgument]()), ("/jackwave/stop", [.int(1)]),
                      ("/jackwave/tone/frequency", [.string("loud")]), ("/jackwave/split", [.float(2)]),
                      ("/jackwave/marker", [.int(7)]), ("/jackwave/reply/marker", [.int(7)])])
    func malformed(path: String, arguments: [OscArgument]) {
        let stops = Stops()
        let remote = RemoteControl(control: RunControl(tone: nil, records: true),
                                   requestStop: { stops.count.add(1, ordering: .relaxed) })
        #expect(remote.handle(path, arguments) == nil)
        let lines = remote.lines.drain().map(\.plain)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains(path) == true)
        #expect(stops.count.load(ordering: .relaxed) == 0)
    }

    @Test("a reply arriving as a message (a forged sender's ping-pong) is said to be a reply and answered with nothing")
    func replyIsNoRequest() {
        let remote = RemoteControl(control: RunControl(tone: nil, records: true), requestStop: {})
        #expect(remote.handle("/jackwave/reply/marker", [.int(1)]) == nil)
        #expect(remote.lines.drain() == ["OSC: /jackwave/reply/marker is a reply, not a request (ignored)"])
    }

    @Test("/jackwave/marker while nothing records is one line, no reply and no marker")
    func markerWithoutRecording() {
        let remote = RemoteControl(control: RunControl(tone: nil, records: true), requestStop: {})
        #expect(remote.handle("/jackwave/marker", [.string("verse")]) == nil)
        let lines = remote.lines.drain().map(\.plain)
        #expect(lines == ["OSC: /jackwave/marker: nothing is being recorded (ignored)"])
    }

    @Test("a flood of unknown messages is two lines: the first, then a count at the end")
    func floodCounted() {
        let remote = RemoteControl(control: RunControl(tone: nil, records: true), requestStop: {})
        for i in 0..<10_000 { _ = remote.handle("/nope/\(i)", [.int(Int64(i))]) }
        remote.finish()
        let lines = remote.lines.drain().map(\.plain)
        #expect(lines.count == 2, "\(lines.prefix(3))")
        #expect(lines.first?.hasPrefix("OSC: unknown message /nope/0 (ignored;") == true)
        #expect(lines.last == "OSC: unknown messages: 9999 more like it (not shown)")
    }
}

/// Every OSC message's checks, in one pure function (also fuzzed).
@Suite("OSC commands")
struct OscCommandTests {
    func refusal(_ path: String, _ arguments: [OscArgument]) -> String? {
        if case let .failure(refusal) = OscCommand.parse(path, arguments) { return refusal.line }
        return nil
    }

    @Test("nan, inf, -inf and 1e308 frequencies are refused, each named as it is")
    func frequencies() {
        for (value, text) in [(Double.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf")] {
            #expect(refusal("/jackwave/tone/frequency", [.float(value)])
                    == "OSC: /jackwave/tone/frequency: \(text) Hz is not a frequency (a finite number of Hz above 0) (ignored)")
        }
        // 1e308 Hz is finite: the server's Nyquist frequency refuses it (RemoteControl), named as 1e+308.
        #expect(OscCommand.parse("/jackwave/tone/frequency", [.float(1e308)]) == .success(.toneFrequency(hz: 1e308)))
        #expect(refusal("/jackwave/tone/frequency", [.float(-5)])?.contains("-5.0 Hz is not a frequency") == true)
    }

    @Test("nan, inf, -inf and 1e308 volumes are refused, each named as it is")
    func volumes() {
        for (value, text) in [(Double.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf")] {
            #expect(refusal("/jackwave/tone/volume", [.float(value)])
                    == "OSC: /jackwave/tone/volume: \(text) dB is not a level (a finite number of dB, at most 0) (ignored)")
        }
        #expect(refusal("/jackwave/tone/volume", [.float(1e308)]) == "OSC: /jackwave/tone/volume: 1e+308 dB is above 0 dBFS (ignored)")
        #expect(OscCommand.parse("/jackwave/tone/volume", [.int(-6)]) == .success(.toneVolume(decibels: -6)))
    }

    @Test("a label is at most 256 bytes: a 60 KB one is refused with its size, and an escape-laden one is kept as it is")
    func labels() {
        let long = String(repeating: "x", count: 61_440)
        #expect(refusal("/jackwave/marker", [.string(long)])
                == "OSC: /jackwave/marker: a label of 61440 bytes is longer than the 256 allowed (ignored)")
        let sly = "\u{1B}]0;x\u{07}\n"
        #expect(OscCommand.parse("/jackwave/marker", [.string(sly)]) == .success(.marker(label: sly)))
    }

    @Test("an unknown path is shown as an escaped excerpt: a 60 KB path with escapes makes a short line")
    func unknownPathExcerpt() {
        let path = "/\u{1B}[2J" + String(repeating: "a", count: 60_000)
        let line = refusal(path, []) ?? ""
        #expect(line.hasPrefix("OSC: unknown message /\\e[2Jaaaa"))
        #expect(line.utf8.count < 400)
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 })
    }
}
