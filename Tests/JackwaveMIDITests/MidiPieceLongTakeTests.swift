import Foundation
@testable import JackwaveMIDI
import JackwaveTestSupport
import Testing

/// Long takes at 192 kHz, driven straight into a `MidiPiece` as the recorder drives one (no
/// need to wait the hours): sparse events with silences far longer than a delta time holds
/// (2^28 ticks, 23 minutes at 192 kHz), brought up to date every few minutes of audio, then
/// read back by three readers that share nothing with the writer.
@Suite("MidiPiece: long takes")
struct MidiPieceLongTakeTests {
    let dir = temporaryDirectory()
    static let rate = 192_000

    /// Events at seconds from the take's start: notes, controllers, a program, pitch bend,
    /// a SysEx and, with `escapes`, MIDI clock, Active Sensing, Song Select and Song Position
    /// (which libsmf cannot read). Silences of 30 minutes, 1, 2 and 5 hours, up to `hours`.
    static func schedule(hours: Int, escapes: Bool) -> [(tick: Int, bytes: [UInt8])] {
        let seconds: [(Double, [UInt8])] = [
            (0, [0x90, 60, 100]), (0.5, [0xB0, 7, 90]), (1, [0x80, 60, 64]), (1.5, [0xF8]), (2, [0xF0, 0x7D, 0x01, 0x02, 0xF7]),
            (1802, [0xC3, 5]), (1802.25, [0xFE]),                                                // after 30 minutes
            (5402.25, [0xE0, 0x00, 0x50]), (5403, [0xF2, 0x30, 0x00]),                          // after 1 hour
            (5403.5, [0xF3, 0x07]), (8000, [0x90, 64, 1]), (8000.5, [0x80, 64, 0]),
            (15_200.5, [0xFA]), (15_201, [0xB1, 64, 127]), (15_202, [0xB1, 64, 0]), (15_203, [0xFC]), // after 2 hours
            (33_203, [0x90, 67, 80]), (33_204, [0x80, 67, 64]),                                  // after 5 hours
            (51_203, [0xF8]), (69_203, [0xF0, 0x7D, 0x7F, 0xF7]), (87_203, [0xB0, 1, 1]), (89_999, [0xF8]),
        ]
        return seconds.filter { $0.0 < Double(hours * 3600) && (escapes || $0.1[0] < 0xF1) }
            .map { (Int($0.0 * Double(rate)), $0.1) }
    }

    /// Writes `events` into a piece `hours` long, refreshed as the writer would: at every
    /// event, and every 7 minutes of audio between; returns its path.
    func record(_ events: [(tick: Int, bytes: [UInt8])], hours: Int) throws -> String {
        let path = dir + "/take-\(hours)h.mid"
        let piece = try MidiPiece(path: path, policy: .new, firstFrame: 0, trackNames: ["keys"],
                                  timing: MidiTiming(fileRate: Self.rate), state: [ChaseState()])
        let end = hours * 3600 * Self.rate
        var next = 0
        for audioEnd in stride(from: 0, to: end, by: 7 * 60 * Self.rate) {
            while next < events.count && events[next].tick < audioEnd {
                #expect(piece.add(MidiMessage(frame: Int64(events[next].tick), port: 0, bytes: events[next].bytes), tick: events[next].tick))
                try piece.refresh(lengthTicks: events[next].tick + 1)
                next += 1
            }
            try piece.refresh(lengthTicks: audioEnd)
        }
        for event in events[next...] {
            #expect(piece.add(MidiMessage(frame: Int64(event.tick), port: 0, bytes: event.bytes), tick: event.tick))
        }
        try piece.finish(lengthTicks: end)
        return path
    }

    @Test("A --midi file of 25 hours at 192 kHz reads back through midicsv and portSMF with every event at its frame")
    func twentyFiveHours() throws {
        let events = Self.schedule(hours: 25, escapes: true)
        #expect(events.count == 22)
        let path = try record(events, hours: 25)
        let end = 25 * 3600 * Self.rate
        let expected = events.map { MidiCSV.Event(tick: $0.tick, bytes: $0.bytes) }
        let csv = try MidiCSV(path)
        #expect(csv.track(2) == expected)
        #expect(csv.ends == [1: end, 2: end])
        // The conductor restates the tempo every 2^28 - 1 ticks: 64 times in 25 hours.
        #expect(csv.tempos == Array(repeating: 10_000, count: 1 + (end - 1) / VariableLengthQuantity.maximum))
        #expect(csv.division == 1920)
        let portSMF = try SMFReader(path, with: .portSMF)
        #expect(portSMF.messages(track: 1) == expected)
        #expect(portSMF.track(0).last == SMFReader.Event(track: 0, tick: end, bytes: [0xFF, 0x2F]))
        #expect(portSMF.track(1).last == SMFReader.Event(track: 1, tick: end, bytes: [0xFF, 0x2F]))
    }

    // libsmf 1.3 holds a tick in an int and asserts it is not negative: no file past 2^31
    // ticks (3 h 6 min at 192 kHz) reads through it, whoever wrote it. Nor can it read any
    // escaped event (it asserts again). What it can read, it must read right.
    @Test("A --midi file of 3 hours at 192 kHz, silent for up to an hour, reads back through libsmf, midicsv and portSMF with every event at its frame")
    func threeHoursThroughLibsmf() throws {
        let events = Self.schedule(hours: 3, escapes: false)
        #expect(events.count == 8)
        let path = try record(events, hours: 3)
        let end = 3 * 3600 * Self.rate
        let expected = events.map { MidiCSV.Event(tick: $0.tick, bytes: $0.bytes) }
        let libsmf = try SMFReader(path, with: .libsmf)
        #expect(libsmf.messages(track: 1) == expected)
        #expect(libsmf.track(1).last == SMFReader.Event(track: 1, tick: end, bytes: [0xFF, 0x2F]))
        #expect(libsmf.division == 1920)
        #expect(try MidiCSV(path).track(2) == expected)
        #expect(try SMFReader(path, with: .portSMF).messages(track: 1) == expected)
    }
}
