import Foundation
import JackwaveDSP
@testable import JackwaveMIDI
import JackwaveRecording
import JackwaveRunSupport
import JackwaveTestSupport
import Testing

/// The MIDI thread (`MidiThread`) as the writer and the session drive it: through the
/// hand-off only, its `.mid` files read back by midicsv.
@Suite("MidiThread")
struct MidiThreadTests {
    let dir = temporaryDirectory()
    let messages = MessageQueue()
    let ring = SPSCRing<MidiRecord>(minimumCapacity: 1024, width: 1)

    func thread(capacity: Int = MidiHandOff.defaultCapacity, events: EventLog? = nil) -> MidiThread {
        let settings = MidiRecordingSettings(trackNames: ["a:out"], controlInput: nil, marker: nil, inputRate: 48000,
                                             fileRate: 48000, policy: .new, lookBackFrames: 0)
        return MidiThread(recorder: MidiRecorder(settings: settings, messages: messages, events: events, onMarker: nil),
                          messages: messages, events: events, handOffCapacity: capacity)
    }

    func file(_ name: String, first: Int64, end: Int64? = nil) -> RecordedFile {
        RecordedFile(path: dir + "/" + name, take: 0, piece: 1, firstFrame: first, endFrame: end ?? first,
                     frames: end.map { $0 - first } ?? 0, ok: true)
    }

    @Test("the files the writer tells of get their events on the MIDI thread, and a file's end is waited for until its .mid is complete")
    func writesThroughTheHandOff() throws {
        let midi = thread()
        midi.attach(ring: ring, timelineBase: 0, follows: nil)
        midi.start()
        for (frame, bytes) in [(Int64(10), [0x90, 0x3C, 0x64] as [UInt8]), (999, [0x80, 0x3C, 0x40]), (1000, [0xB0, 0x07, 0x50])] {
            try #require(put(ring, frame: frame, bytes))
        }
        let writer = midi.companion
        writer.fileBegan(file("take-001.wav", first: 0))
        writer.reached(1000)
        let first = writer.fileEnded(file("take-001.wav", first: 0, end: 1000))
        writer.fileBegan(file("take-002.wav", first: 1000))
        writer.reached(2000)
        let second = writer.fileEnded(file("take-002.wav", first: 1000, end: 2000))
        #expect(writer.waitUntilFinished(first, timeout: 30) && writer.waitUntilFinished(second, timeout: 30))
        // Complete once waited for: its events, and its track as long as its audio.
        let a = try MidiCSV(dir + "/take-001.mid")
        let b = try MidiCSV(dir + "/take-002.mid")
        #expect(a.track(2) == [at(10, 0x90, 0x3C, 0x64), at(999, 0x80, 0x3C, 0x40)])
        #expect(b.track(2) == [at(0, 0xB0, 0x07, 0x50)])
        #expect(a.ends[2] == 1000 && b.ends[2] == 1000)
        #expect(midi.stop(timeout: 30, frame: 2000))
        #expect(midi.stopped == nil && midi.recorder.snapshot.recorded == [3])
        #expect(messages.drain().isEmpty)
    }

    @Test("with no writer (--record take.mid) the thread follows the callback's position, across connections")
    func followsTheCallback() throws {
        let midi = thread()
        let path = dir + "/alone.mid"
        #expect(midi.recorder.beginAlone(path: path) == nil)
        let first = EngineSignals()
        midi.attach(ring: ring, timelineBase: 0, follows: first)
        try #require(put(ring, frame: 100, [0x90, 0x3C, 0x64]))
        first.streamFrames.store(4800, ordering: .releasing)
        midi.start()
        // A second connection, 4800 frames later on the timeline, with a ring of its own.
        let second = EngineSignals()
        let nextRing = SPSCRing<MidiRecord>(minimumCapacity: 64, width: 1)
        try #require(put(nextRing, frame: 20, [0x80, 0x3C, 0x40]))
        second.streamFrames.store(480, ordering: .releasing)
        midi.attach(ring: nextRing, timelineBase: 4800, follows: second)
        midi.endAlone(path: path, frames: 5280)
        #expect(midi.stop(timeout: 30, frame: 5280))
        let mid = try MidiCSV(path)
        #expect(mid.track(2) == [at(100, 0x90, 0x3C, 0x64), at(4820, 0x80, 0x3C, 0x40)])
        #expect(mid.ends[2] == 5280)
    }

    @Test("after the hand-off overflowed, what was posted before is written, then MIDI stops: later events are counted unwritten and the reason is kept")
    func overflowStopsMidiAlone() throws {
        let midi = thread(capacity: 4)
        // The thread has not started: the writer fills the hand-off.
        midi.attach(ring: ring, timelineBase: 0, follows: nil)
        let writer = midi.companion
        // Poly aftertouch: nothing a cut chases, so each file holds only what came in it.
        try #require(put(ring, frame: 10, [0xA0, 0x3C, 0x64]))
        try #require(put(ring, frame: 1500, [0xA0, 0x3C, 0x50]))
        writer.fileBegan(file("take-001.wav", first: 0))
        _ = writer.fileEnded(file("take-001.wav", first: 0, end: 1000))
        writer.fileBegan(file("take-002.wav", first: 1000))
        writer.reached(2000)
        let lost = writer.fileEnded(file("take-002.wav", first: 1000, end: 2000))
        #expect(midi.handOff.hasOverflowed)
        // Nothing waits for what will not be written.
        #expect(writer.waitUntilFinished(lost, timeout: 0))
        midi.start()
        #expect(waitUntil(timeout: 30) { midi.stopped != nil }, "MIDI did not stop")
        // The second file is finished as it stood, at the frame the writer had reached.
        let a = try MidiCSV(dir + "/take-001.mid")
        let b = try MidiCSV(dir + "/take-002.mid")
        #expect(a.track(2) == [at(10, 0xA0, 0x3C, 0x64)] && a.ends[2] == 1000)
        #expect(b.track(2) == [at(500, 0xA0, 0x3C, 0x50)] && b.ends[2] == 1000)
        // An event that comes later is taken from the ring and counted, not written.
        try #require(put(ring, frame: 2100, [0x90, 0x40, 0x64]))
        #expect(waitUntil(timeout: 30) { midi.recorder.snapshot.unwritten == [1] }, "\(midi.recorder.snapshot)")
        #expect(midi.recorder.snapshot.recorded == [2])
        #expect(midi.stop(timeout: 30, frame: 2100))
        #expect(midi.stopped?.reason.contains("4 notices behind") == true, "\(String(describing: midi.stopped))")
        let said = messages.drain().map(\.plain)
        #expect(said.count == 1 && said.first?.hasPrefix("MIDI: 4 notices") == true, "\(said)")
    }

    @Test("a .mid that cannot be made is said, its events are counted unwritten, and the next file is written")
    func failedFileAlone() throws {
        let midi = thread()
        midi.attach(ring: ring, timelineBase: 0, follows: nil)
        midi.start()
        // Something in the way of the first .mid (policy .new never overwrites).
        try Data("not ours".utf8).write(to: URL(fileURLWithPath: dir + "/take-001.mid"))
        for frame in [Int64(10), 20, 1010] { try #require(put(ring, frame: frame, [0xA0, 0x3C, 0x64])) }
        let writer = midi.companion
        writer.fileBegan(file("take-001.wav", first: 0))
        writer.reached(1000)
        _ = writer.fileEnded(file("take-001.wav", first: 0, end: 1000))
        writer.fileBegan(file("take-002.wav", first: 1000))
        writer.reached(2000)
        let ticket = writer.fileEnded(file("take-002.wav", first: 1000, end: 2000))
        #expect(writer.waitUntilFinished(ticket, timeout: 30))
        #expect(midi.stop(timeout: 30, frame: 2000))
        let totals = midi.recorder.snapshot
        #expect(totals.unwritten == [2] && totals.recorded == [1] && totals.outside == [0], "\(totals)")
        #expect(try MidiCSV(dir + "/take-002.mid").track(2) == [at(10, 0xA0, 0x3C, 0x64)])
        #expect(midi.stopped == nil)
        let said = messages.drain().map(\.plain)
        #expect(said.count == 1 && said.first?.contains(dir + "/take-001.mid") == true, "\(said)")
    }
}
