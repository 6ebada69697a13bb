import Foundation
@testable import JackwavePlot
import JackwaveTestSupport
import Testing

/// Reading MIDI files through portSMF: times in seconds through the tempo map, what each note
/// carries, the tracks' names, and damaged files refused in one line.
@Suite("Reading MIDI files")
struct MidiNotesTests {
    /// The notes of `file`, written to a fresh directory and read back.
    func read(_ file: MidiFileBytes) throws -> MidiNotes {
        try read(file.bytes)
    }

    func read(_ bytes: [UInt8]) throws -> MidiNotes {
        let scratch = try Scratch()
        return try MidiNotes.read(path: scratch.bytes("take.mid", bytes))
    }

    /// The error reading `bytes` gives (nil if it was read).
    func failure(_ bytes: [UInt8]) throws -> PlotError? {
        let scratch = try Scratch()
        let path = try scratch.bytes("bad.mid", bytes)
        do {
            _ = try MidiNotes.read(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test("a note at tick 48000, at 480 ticks and 10 000 µs a quarter note, starts at exactly 1.0 s")
    func tickIsFrame() throws {
        let notes = try read(jackwaveTake())
        let first = try #require(notes.notes.first { $0.pitch == 60 })
        #expect(first.start == 1.0)
        #expect(first.duration == 0.5)
    }

    @Test("each note keeps its track, channel, pitch and velocity, ordered by track then start")
    func noteFields() throws {
        let notes = try read(jackwaveTake())
        #expect(notes.notes.map(\.track) == [1, 1, 2])
        #expect(notes.notes.map(\.pitch) == [60, 67, 36])
        #expect(notes.notes.map(\.channel) == [2, 2, 0])
        #expect(notes.notes.map(\.velocity) == [100, 127, 90])
        #expect(notes.notes.map(\.start) == [1.0, 2.0, 1.5])
        #expect(notes.notes.map(\.duration) == [0.5, 0.25, 1.0])
    }

    @Test("every track has its 0x03 name, the conductor's too, and a track without one has none")
    func trackNames() throws {
        var file = jackwaveTake()
        var unnamed = MidiFileBytes.Track()
        unnamed.note(72, at: 0, length: 480)
        file.tracks.append(unnamed)
        let notes = try read(file)
        #expect(notes.trackNames == ["take", "keys", "bass", nil])
        #expect(notes.label(ofTrack: 3) == "track 4")
    }

    @Test("the file's length is its latest end of track, whichever track it is in")
    func length() throws {
        #expect(try read(jackwaveTake()).length == 4.0)
    }

    @Test("ticks become seconds through every tempo change: 0.5 s a quarter, then 0.25 s")
    func tempoMap() throws {
        var conductor = MidiFileBytes.Track()
        conductor.tempo(500_000)
        conductor.tempo(250_000, at: 96)
        var melody = MidiFileBytes.Track()
        melody.note(64, at: 192, length: 96)
        let notes = try read(MidiFileBytes(division: 96, tracks: [conductor, melody]))
        let note = try #require(notes.notes.first)
        #expect(abs(note.start - 0.75) < 1e-12)
        #expect(abs(note.duration - 0.25) < 1e-12)
    }

    @Test("a note-on of velocity 0 ends a note as a note-off does")
    func zeroVelocityOff() throws {
        var track = MidiFileBytes.Track()
        track.tempo(500_000)
        track.note(50, at: 0, length: 48, offAsZeroVelocity: true)
        let note = try #require(try read(MidiFileBytes(division: 96, tracks: [track])).notes.first)
        #expect(note.duration == 0.25)
    }

    @Test("a note never ended lasts to the end of its track")
    func hangingNote() throws {
        var track = MidiFileBytes.Track()
        track.tempo(500_000)
        track.note(50, at: 96, length: nil)
        track.end = 384
        let note = try #require(try read(MidiFileBytes(division: 96, tracks: [track])).notes.first)
        #expect(note.start == 0.5)
        #expect(note.duration == 1.5)
    }

    @Test("system-exclusive and escaped (F7) messages are skipped, and the notes after them keep their times")
    func escapedMessagesSkipped() throws {
        var track = MidiFileBytes.Track()
        track.tempo(500_000)
        track.raw([0xf0, 0x03, 0x7e, 0x7f, 0xf7], at: 10)
        track.raw([0xf7, 0x01, 0xfa], at: 20)  // an escaped realtime Start, as libsmf writes one
        track.note(55, at: 96, length: 96)
        let notes = try read(MidiFileBytes(division: 96, tracks: [track]))
        #expect(notes.notes.map(\.start) == [0.5])
    }

    @Test("running status carries a note-on's status byte to the next events")
    func runningStatus() throws {
        var track = MidiFileBytes.Track()
        track.tempo(500_000)
        track.raw([0x91, 60, 100], at: 0)
        track.raw([62, 90], at: 0)
        track.raw([60, 0], at: 96)
        track.raw([62, 0], at: 192)
        let notes = try read(MidiFileBytes(division: 96, tracks: [track]))
        #expect(notes.notes.map(\.pitch) == [60, 62])
        #expect(notes.notes.map(\.duration) == [0.5, 1.0])
        #expect(notes.notes.map(\.channel) == [1, 1])
    }

    @Test("an SMPTE division (25 frames of 40 ticks) counts ticks in seconds, not quarter notes")
    func smpteDivision() throws {
        var track = MidiFileBytes.Track()
        track.tempo(10_000)  // ignored: SMPTE timing has no tempo
        track.note(60, at: 1500, length: 500)
        let division = UInt16(UInt8(bitPattern: -25)) << 8 | 40
        let note = try #require(try read(MidiFileBytes(division: division, tracks: [track])).notes.first)
        #expect(abs(note.start - 1.5) < 1e-12)
        #expect(abs(note.duration - 0.5) < 1e-12)
    }

    @Test("a truncated file is bad input, in one line saying so, not a crash")
    func truncated() throws {
        let whole = jackwaveTake().bytes
        let error = try #require(try failure(Array(whole.prefix(whole.count - 7))))
        #expect(error.kind == .badInput)
        #expect(error.message.plain.contains("truncated"), "\(error.message.plain)")
        #expect(!error.message.plain.contains("\n"))
    }

    @Test("a file cut inside its header is bad input")
    func cutHeader() throws {
        #expect(try failure(Array(jackwaveTake().bytes.prefix(10)))?.kind == .badInput)
    }

    @Test("a text file named .mid is bad input")
    func notMidi() throws {
        #expect(try failure(Array("hello, not MIDI\n".utf8))?.kind == .badInput)
    }

    @Test("a tempo event shorter than its 3 bytes is bad input, though portSMF alone would read past it")
    func shortTempo() throws {
        var track = MidiFileBytes.Track()
        track.meta(0x51, [0x07])
        track.note(60, at: 0, length: 10)
        let error = try #require(try failure(MidiFileBytes(division: 96, tracks: [track]).bytes))
        #expect(error.message.plain.contains("tempo"), "\(error.message.plain)")
    }

    @Test("an event running past its track's end is bad input")
    func eventPastTrackEnd() throws {
        var bytes = jackwaveTake().bytes
        // The first MTrk chunk's length, one byte short: its end-of-track event is cut.
        let start = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("MTrk".utf8) })
        bytes[start + 7] -= 1
        #expect(try failure(bytes)?.kind == .badInput)
    }

    @Test("a file larger than 64 MiB is refused before it is read")
    func tooLarge() throws {
        let scratch = try Scratch()
        let path = scratch.file("huge.mid")
        try Data(jackwaveTake().bytes).write(to: URL(fileURLWithPath: path))
        // Sparse: the size is there, the blocks are not.
        #expect(truncate(path, 64 * 1024 * 1024 + 1) == 0)
        do {
            _ = try MidiNotes.read(path: path)
            Issue.record("read")
        } catch {
            #expect(error.message.plain.contains("too large"), "\(error.message.plain)")
        }
    }

    @Test("a format-2 file (independent sequences) is refused as a kind not drawn")
    func formatTwo() throws {
        var file = jackwaveTake()
        file.format = 2
        let error = try #require(try failure(file.bytes))
        #expect(error.message.plain.contains("format 2"), "\(error.message.plain)")
    }

    @Test("200,000 note-ons repeated on one key, with a note on another key between each, each end the note before them")
    func repeatedNoteOns() throws {
        // Once read in time that grew as the square of the notes sounding on the key (each
        // note-off looked through all of them): minutes for this file.
        var track = MidiFileBytes.Track()
        track.tempo(500_000)
        let count = 200_000
        for i in 0..<count {
            track.raw([0x90, 60, 100], at: 2 * i)
            track.raw([0x90, 61, 90], at: 2 * i)
            track.raw([0x80, 61, 0], at: 2 * i + 1)
        }
        track.raw([0x80, 60, 0], at: 2 * count)
        let notes = try read(MidiFileBytes(division: 96, tracks: [track])).notes
        let held = notes.filter { $0.pitch == 60 }
        let between = notes.filter { $0.pitch == 61 }
        #expect(held.count == count)
        #expect(between.count == count)
        // Two ticks at 96 a quarter note of 0.5 s: 1/96 s.
        let tick = 0.5 / 96
        #expect(held.enumerated().allSatisfy { abs($0.element.start - Double(2 * $0.offset) * tick) < 1e-9 })
        #expect(held.allSatisfy { abs($0.duration - 2 * tick) < 1e-9 && $0.velocity == 100 })
        #expect(between.allSatisfy { abs($0.duration - tick) < 1e-9 && $0.velocity == 90 })
    }

    @Test("10,000 tempo changes, the most read, each move the notes after them")
    func manyTempoChanges() throws {
        var track = MidiFileBytes.Track()
        var expected: [Double] = []
        var seconds = 0.0
        for k in 0..<10_000 {
            let tempo = k % 2 == 0 ? 500_000 : 250_000
            track.tempo(tempo, at: 96 * k)
            track.note(60, at: 96 * k + 48, length: 24)
            expected.append(seconds + 0.5 * Double(tempo) / 1e6)
            seconds += Double(tempo) / 1e6
        }
        let notes = try read(MidiFileBytes(division: 96, tracks: [track])).notes
        #expect(notes.count == expected.count)
        #expect(zip(notes, expected).allSatisfy { abs($0.start - $1) < 1e-6 })
    }

    @Test("a file of more than 10,000 tempo events is refused as a kind not drawn")
    func tooManyTempoEvents() throws {
        var track = MidiFileBytes.Track()
        for k in 0...10_000 { track.tempo(k % 2 == 0 ? 500_000 : 250_000, at: k) }
        let error = try #require(try failure(MidiFileBytes(division: 96, tracks: [track]).bytes))
        #expect(error.kind == .badInput)
        #expect(error.message.plain.contains("more than 10000 tempo events"), "\(error.message.plain)")
    }
}
