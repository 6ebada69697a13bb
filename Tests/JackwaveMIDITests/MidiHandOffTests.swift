import Foundation
import JackwaveDSP
@testable import JackwaveMIDI
import JackwaveRecording
import JackwaveRunSupport
import JackwaveTestSupport
import Testing

/// The hand-off from the audio writer to the MIDI thread (`MidiHandOff`): bounded, never
/// waiting, in order, and never losing a file's begin or end without saying so.
@Suite("MidiHandOff")
struct MidiHandOffTests {
    let dir = temporaryDirectory()
    let messages = MessageQueue()

    func file(_ name: String, first: Int64, end: Int64? = nil) -> RecordedFile {
        RecordedFile(path: dir + "/" + name, take: 0, piece: 1, firstFrame: first, endFrame: end ?? first,
                     frames: end.map { $0 - first } ?? 0, ok: true)
    }

    /// What a notice says, short: `began take.wav`, `ended take.wav #1`, `attach 480`.
    static func describe(_ notice: MidiHandOff.Notice?) -> String? {
        switch notice {
        case let .began(file): "began \(URL(fileURLWithPath: file.path).lastPathComponent)"
        case let .ended(file, ticket): "ended \(URL(fileURLWithPath: file.path).lastPathComponent) #\(ticket)"
        case let .attach(_, base, follows): "attach \(base)\(follows == nil ? "" : " following")"
        case nil: nil
        }
    }

    static func drain(_ handOff: MidiHandOff) -> [String] {
        var out: [String] = []
        while let text = describe(handOff.next()) { out.append(text) }
        return out
    }

    @Test("notices come out once each, in the order posted, and each end gets the next ticket")
    func inOrder() {
        let handOff = MidiHandOff(messages: messages, events: nil, capacity: 8)
        let ring = SPSCRing<MidiRecord>(minimumCapacity: 16, width: 1)
        handOff.attach(ring: ring, timelineBase: 0, follows: nil)
        handOff.fileBegan(file("a.wav", first: 0))
        let first = handOff.fileEnded(file("a.wav", first: 0, end: 100))
        handOff.fileBegan(file("b.wav", first: 100))
        let second = handOff.fileEnded(file("b.wav", first: 100, end: 250))
        handOff.attach(ring: ring, timelineBase: 480, follows: EngineSignals())
        #expect((first, second) == (1, 2))
        #expect(Self.drain(handOff) == ["attach 0", "began a.wav", "ended a.wav #1", "began b.wav", "ended b.wav #2", "attach 480 following"])
        #expect(Self.describe(handOff.next()) == nil)
        #expect(!handOff.hasOverflowed && handOff.lostNotices.load(ordering: .relaxed) == 0)
    }

    @Test("the frame reached and the refreshes asked are single values: a thousand posts of them fill nothing")
    func reachedAndRefreshFillNothing() {
        let handOff = MidiHandOff(messages: messages, events: nil, capacity: 4)
        for frame in 1...1000 {
            handOff.reached(Int64(frame) * 256)
            handOff.refresh()
        }
        #expect(handOff.reachedFrame.load(ordering: .relaxed) == 256_000)
        #expect(handOff.refreshesAsked.load(ordering: .relaxed) == 1000)
        #expect(handOff.waiting == 0 && !handOff.hasOverflowed)
    }

    @Test("a full hand-off returns at once, stops MIDI, says so once as a line and a midi_failed event, and counts each notice lost")
    func fullIsSaidAndCounted() throws {
        let eventsPath = dir + "/events.jsonl"
        let log = try EventLog(path: eventsPath)
        let handOff = MidiHandOff(messages: messages, events: log, capacity: 4)
        // No MIDI thread takes them: the four that fit wait; the fifth and the rest are lost.
        for n in 1...4 { handOff.fileBegan(file("take-\(n).wav", first: Int64(n) * 100)) }
        #expect(!handOff.hasOverflowed)
        handOff.fileBegan(file("take-5.wav", first: 500))
        let ticket = handOff.fileEnded(file("take-5.wav", first: 500, end: 600))
        handOff.fileBegan(file("take-6.wav", first: 600))
        #expect(handOff.hasOverflowed && handOff.isStopped)
        #expect(handOff.lostNotices.load(ordering: .relaxed) == 3)
        let said = messages.drain().map(\.plain)
        #expect(said.count == 1, "\(said)")
        #expect(said.first.map { $0.hasPrefix("MIDI: 4 notices") && $0.contains("the audio goes on") } == true, "\(said)")
        // The events file is written by a thread of its own: wait for it to have written.
        #expect(log.flush())
        let events = try EventStream.read(eventsPath)
        #expect(events.count == 1)
        #expect(events.first?["event"] as? String == "midi_failed")
        #expect(events.first?["path"] as? String == dir + "/take-5.mid")
        #expect(events.first?["frame"] as? Int == 500)
        // Nothing waits for a .mid that will not be written; the four posted still come out.
        #expect(handOff.waitUntilFinished(ticket, timeout: 0))
        #expect(Self.drain(handOff) == (1...4).map { "began take-\($0).wav" })
    }

    @Test("a wait for a file's end lasts until the MIDI thread has handled it, and no longer than its bound")
    func waitForTicket() {
        let handOff = MidiHandOff(messages: messages, events: nil, capacity: 8)
        let ticket = handOff.fileEnded(file("a.wav", first: 0, end: 100))
        #expect(!handOff.waitUntilFinished(ticket, timeout: 0.05))
        _ = handOff.next()
        handOff.finished(ticket)
        #expect(handOff.waitUntilFinished(ticket, timeout: 0))
        // A later end is not done by an earlier one's.
        let later = handOff.fileEnded(file("b.wav", first: 100, end: 200))
        #expect(!handOff.waitUntilFinished(later, timeout: 0))
        // Once MIDI has stopped for the run, nothing waits.
        handOff.stop()
        #expect(handOff.waitUntilFinished(later, timeout: 60))
    }

    @Test("a producer and a consumer on two threads move 200,000 notices through 64 slots, in order, none lost")
    func twoThreads() async {
        let handOff = MidiHandOff(messages: messages, events: nil, capacity: 64)
        let count = 200_000
        let producer = Task.detached { [dir] in
            for n in 0..<count {
                // Only where there is room: a full hand-off would stop MIDI.
                while handOff.waiting >= handOff.capacity { await Task.yield() }
                handOff.fileBegan(RecordedFile(path: dir + "/x.wav", take: 0, piece: n, firstFrame: Int64(n), endFrame: Int64(n),
                                               frames: 0, ok: true))
            }
        }
        var next = 0
        var inOrder = true
        while next < count {
            if case let .began(file) = handOff.next() {
                inOrder = inOrder && file.piece == next && file.firstFrame == Int64(next)
                next += 1
            } else {
                await Task.yield()
            }
        }
        await producer.value
        #expect(inOrder && next == count)
        #expect(Self.describe(handOff.next()) == nil && !handOff.hasOverflowed)
    }
}
