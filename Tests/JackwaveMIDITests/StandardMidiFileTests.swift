import Foundation
@testable import JackwaveMIDI
import JackwaveTestSupport
import Testing

/// jackwave's own Standard MIDI Files, byte by byte and as two other readers (midicsv, and
/// portSMF through `jackwave-smfread`) read them back.
@Suite("StandardMidiFile")
struct StandardMidiFileTests {
    let dir = temporaryDirectory()

    /// A file at 48 kHz (480 ticks a quarter of 10,000 µs) with inputs named `names`.
    func file(_ names: [String] = ["keys"]) throws -> StandardMidiFile {
        try StandardMidiFile(trackNames: names, timing: MidiTiming(fileRate: 48000))
    }

    /// `file`'s whole image, ending at `end`, saved as `name`.
    func save(_ file: StandardMidiFile, end: Int, as name: String = "take.mid") throws -> String {
        let path = dir + "/" + name
        try Data(file.image(endTick: end)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The bytes of the input's track after its name (at tick 0: 00 FF 03 len name), up to
    /// its End of Track.
    func inputEvents(_ file: StandardMidiFile, end: Int, name: String = "keys") -> [UInt8] {
        let image = file.image(endTick: end)
        let nameEvent: [UInt8] = [0x00, 0xFF, 0x03, UInt8(name.utf8.count)] + Array(name.utf8)
        guard let start = image.indices.first(where: { image[$0...].starts(with: nameEvent) }) else { return [] }
        return Array(image[(start + nameEvent.count)...])
    }

    @Test("the header says type 1, one track more than the inputs and the division; the conductor holds the tempo at tick 0 and ends with the others")
    func headerAndConductor() throws {
        let image = try file(["a", "b"]).image(endTick: 1000)
        #expect(Array(image.prefix(14)) == Array("MThd".utf8) + [0, 0, 0, 6, 0, 1, 0, 3, 0x01, 0xE0])
        // MTrk, 12 bytes: the tempo (10,000 µs) at 0, End of Track 1000 ticks on (87 68).
        #expect(Array(image[14..<34]) == Array("MTrk".utf8) + [0, 0, 0, 12, 0x00, 0xFF, 0x51, 0x03, 0x00, 0x27, 0x10,
                                                                0x87, 0x68, 0xFF, 0x2F, 0x00])
    }

    @Test("each input's track opens with its name at tick 0: printable ASCII, anything else a question mark, 200 characters at most")
    func trackNames() throws {
        let long = String(repeating: "x", count: 300)
        let path = try save(try file(["a:ké\u{7}y", long]), end: 10)
        let csv = try MidiCSV(path)
        #expect(csv.names[2] == "a:k??y")
        #expect(csv.names[3] == String(repeating: "x", count: 200))
    }

    @Test("a channel message keeps its status byte: two note-ons in a row are written whole, without running status")
    func noRunningStatus() throws {
        let f = try file()
        #expect(f.add([0x90, 0x3C, 0x64], input: 0, tick: 10))
        #expect(f.add([0x90, 0x3E, 0x64], input: 0, tick: 20))
        #expect(inputEvents(f, end: 20) == [0x0A, 0x90, 0x3C, 0x64, 0x0A, 0x90, 0x3E, 0x64, 0x00, 0xFF, 0x2F, 0x00])
    }

    @Test("a system common or real-time message is an F7 escape: F7, its length, its bytes", arguments: [
        [0xF1, 0x25], [0xF2, 0x30, 0x00], [0xF3, 0x05], [0xF6], [0xF8], [0xFA], [0xFB], [0xFC], [0xFE],
    ] as [[UInt8]])
    func escapes(message: [UInt8]) throws {
        #expect(StandardMidiFile.event(for: message) == [0xF7, UInt8(message.count)] + message)
        let f = try file()
        #expect(f.add(message, input: 0, tick: 5))
        #expect(inputEvents(f, end: 5) == [0x05, 0xF7, UInt8(message.count)] + message + [0x00, 0xFF, 0x2F, 0x00])
    }

    @Test("a SysEx is an F0 event whose length counts the bytes after F0, its F7 included")
    func sysExLength() {
        #expect(StandardMidiFile.event(for: [0xF0, 0x7D, 0x01, 0xF7]) == [0xF0, 0x03, 0x7D, 0x01, 0xF7])
        #expect(StandardMidiFile.event(for: [0xF0, 0xF7]) == [0xF0, 0x01, 0xF7])
    }

    @Test("a SysEx of 64 KiB is written whole, its length in three bytes, and midicsv and portSMF read it back byte for byte")
    func sysExOf64KiB() throws {
        // F0, 65,534 data bytes, F7: the longest event the recorder keeps.
        let sysex: [UInt8] = [0xF0] + (0..<65534).map { UInt8(truncatingIfNeeded: $0 * 31 + 7) & 0x7F } + [0xF7]
        #expect(sysex.count == 65536)
        let event = try #require(StandardMidiFile.event(for: sysex))
        #expect(Array(event.prefix(4)) == [0xF0, 0x83, 0xFF, 0x7F])
        let f = try file()
        #expect(f.add(sysex, input: 0, tick: 480))
        let path = try save(f, end: 1000)
        #expect(try MidiCSV(path).track(2) == [MidiCSV.Event(tick: 480, bytes: sysex)])
        #expect(try SMFReader(path, with: .portSMF).messages(track: 1) == [MidiCSV.Event(tick: 480, bytes: sysex)])
    }

    @Test("what a file cannot hold, or is no message, is refused and leaves the file as it was", arguments: [
        [0xFF], [0xF7], [0x3C, 0x64], [0x90, 0x3C], [0x90, 0x3C, 0x64, 0x00], [0x90, 0x3C, 0x80], [0xC0, 0x05, 0x06],
        [0xF0, 0x01, 0x02], [0xF0, 0x01, 0x90, 0xF7], [0xF2, 0x30], [0xF8, 0x00], [0xF4], [0xF5], [0xF9], [0xFD], [],
    ] as [[UInt8]])
    func refused(message: [UInt8]) throws {
        let f = try file()
        let before = f.image(endTick: 100)
        #expect(!f.add(message, input: 0, tick: 50))
        #expect(f.image(endTick: 100) == before)
    }

    @Test("an input that does not exist, a negative tick or one past 2^40 is refused")
    func outOfRange() throws {
        let f = try file()
        #expect(!f.add([0xF8], input: 1, tick: 0))
        #expect(!f.add([0xF8], input: -1, tick: 0))
        #expect(!f.add([0xF8], input: 0, tick: -1))
        #expect(!f.add([0xF8], input: 0, tick: StandardMidiFile.maximumTick + 1))
        #expect(f.add([0xF8], input: 0, tick: StandardMidiFile.maximumTick))
    }

    @Test("an event before the track's last goes at the last's tick, never back in time")
    func neverBackInTime() throws {
        let f = try file()
        #expect(f.add([0xF8], input: 0, tick: 100))
        #expect(f.add([0xFE], input: 0, tick: 40))
        let path = try save(f, end: 200)
        #expect(try MidiCSV(path).track(2) == [at(100, 0xF8), at(100, 0xFE)])
    }

    @Test("every track ends at the end given, or at the latest event when that is later")
    func trackEnds() throws {
        let f = try file(["a", "b"])
        #expect(f.add([0x90, 0x3C, 0x64], input: 1, tick: 700))
        #expect(try MidiCSV(save(f, end: 1000)).ends == [1: 1000, 2: 1000, 3: 1000])
        #expect(try MidiCSV(save(f, end: 500, as: "short.mid")).ends == [1: 700, 2: 700, 3: 700])
    }

    @Test("a clock or a number of tracks the header cannot hold is refused")
    func headerLimits() {
        #expect(throws: MidiFileError.self) { try StandardMidiFile(trackNames: ["a"], timing: MidiTiming(fileRate: 44101)) }
        #expect(throws: MidiFileError.self) { try StandardMidiFile(trackNames: Array(repeating: "a", count: 0xFFFF), timing: MidiTiming(fileRate: 48000)) }
    }

    @Test("every status byte from 0x80 to 0xFF, as the recorder hands it over, is in the file at its tick for midicsv and portSMF, and what it sets aside is not")
    func everyStatusByte() throws {
        // Each status as a sender would send it, in an event of its own, 100 frames apart.
        var events: [[UInt8]] = []
        for status in 0x80...0xFF {
            let s = UInt8(status)
            switch s {
            case 0x80...0xBF, 0xE0...0xEF, 0xF2: events.append([s, 0x12, 0x34])
            case 0xC0...0xDF, 0xF1, 0xF3: events.append([s, 0x12])
            case 0xF0: events.append([0xF0, 0x7D, 0x12, 0x34, 0xF7])
            default: events.append([s])
            }
        }
        var assembler = MidiAssembler(ports: 1)
        var messages: [MidiMessage] = []
        for (i, event) in events.enumerated() {
            event.withUnsafeBytes { assembler.take(port: 0, bytes: $0, continues: false, frame: Int64(100 * i)) { messages.append($0) } }
        }
        // Set aside: F4, F5, a lone F7, F9 and FD (malformed), FF (unrecordable).
        #expect(assembler.malformed == [5] && assembler.unrecordable == [1])
        #expect(messages.count == 128 - 6)
        let f = try file()
        for message in messages { #expect(f.add(message.bytes, input: 0, tick: Int(message.frame)), "\(message.bytes)") }
        let path = try save(f, end: 100 * 128)
        let expected = messages.map { MidiCSV.Event(tick: Int($0.frame), bytes: $0.bytes) }
        #expect(try MidiCSV(path).track(2) == expected)
        #expect(try SMFReader(path, with: .portSMF).messages(track: 1) == expected)
    }

    @Test("a wait longer than a delta time holds is bridged every 0x0FFFFFFF ticks: an empty text event in the input's track, the tempo restated in the conductor")
    func bridgedGap() throws {
        let max = VariableLengthQuantity.maximum
        let f = try file()
        #expect(f.add([0x90, 0x3C, 0x64], input: 0, tick: 10))
        #expect(f.add([0x80, 0x3C, 0x40], input: 0, tick: 2 * max + 17))
        // The input: the note; two bridges (the longest delta, FF FF FF 7F, then an empty
        // text event) and the note's end 7 ticks on; a bridge and End of Track 83 ticks on.
        let bridge: [UInt8] = [0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0x01, 0x00]
        #expect(inputEvents(f, end: 3 * max + 100) == [0x0A, 0x90, 0x3C, 0x64] + bridge + bridge + [0x07, 0x80, 0x3C, 0x40]
                + bridge + [0x53, 0xFF, 0x2F, 0x00])
        let path = try save(f, end: 3 * max + 100)
        let read = try SMFReader(path, with: .portSMF)
        #expect(read.track(1).map(\.tick) == [0, 10, 10 + max, 10 + 2 * max, 2 * max + 17, 3 * max + 17, 3 * max + 100])
        #expect(read.track(1).map(\.bytes) == [[0xFF, 0x03] + Array("keys".utf8), [0x90, 0x3C, 0x64], [0xFF, 0x01], [0xFF, 0x01],
                                               [0x80, 0x3C, 0x40], [0xFF, 0x01], [0xFF, 0x2F]])
        let tempo: [UInt8] = [0xFF, 0x51, 0x00, 0x27, 0x10]
        #expect(read.track(0) == [0, max, 2 * max, 3 * max].map { SMFReader.Event(track: 0, tick: $0, bytes: tempo) }
                + [SMFReader.Event(track: 0, tick: 3 * max + 100, bytes: [0xFF, 0x2F])])
        let csv = try MidiCSV(path)
        #expect(csv.track(2) == [at(10, 0x90, 0x3C, 0x64), at(2 * max + 17, 0x80, 0x3C, 0x40)])
        #expect(csv.tempos == [10_000, 10_000, 10_000, 10_000])
        #expect(csv.ends == [1: 3 * max + 100, 2: 3 * max + 100])
    }
}
