import Foundation
@testable import JackwavePlot
import JackwaveTestSupport
import Testing

extension CairoSurface {
    /// Whether the pixel at (`x`, `y`) is `color` (opaque), within antialiasing's rounding.
    func shows(_ color: Color, x: Int, y: Int) -> Bool {
        let p = pixel(x: x, y: y)
        return [(p.r, color.red), (p.g, color.green), (p.b, color.blue)].allSatisfy { abs(Double($0.0) - $0.1 * 255) <= 3 }
    }
}

/// Piano rolls, looked at pixel by pixel: `plot FILE.mid` alone and `plot FILE --midi` under a waveform.
@Suite("Piano rolls in plots")
struct PianoRollPlotTests {
    static let width = 640, height = 300

    /// The centre of the note of `pitch` from `start` to `end` seconds, in `box`, drawn on an
    /// axis from `from` to `to` seconds.
    func centre(pitch: Int, start: Double, end: Double, notes: MidiNotes, box: Box, from: Double, to: Double) -> (x: Int, y: Int) {
        let row = PianoRollRenderer.row(of: pitch, in: PianoRollRenderer.pitches(of: notes), box: box)
        let t = (start + end) / 2
        return (Int(box.x + (t - from) / (to - from) * box.width), Int(row.top + row.height / 2))
    }

    /// `jackwaveTake()` drawn alone; the picture, the notes and the lane.
    func drawnTake(options: PlotOptions = PlotOptions(width: width, height: height)) throws -> (CairoSurface, MidiNotes, Box) {
        let scratch = try Scratch()
        let input = try scratch.bytes("take.mid", jackwaveTake().bytes)
        try Plot.draw(input, to: scratch.file("roll.png"), options: options)
        let notes = try MidiNotes.read(path: input)
        let lane = PlotLayout(width: options.width ?? 0, height: options.height ?? 0, lanes: 1).lane(0)
        return (decodedPNG(scratch.file("roll.png")), notes, lane)
    }

    @Test("plot FILE.mid draws a PNG of the size asked")
    func pictureSize() throws {
        let (picture, _, _) = try drawnTake()
        #expect(picture.error == nil)
        #expect(picture.width == Self.width)
        #expect(picture.height == Self.height)
    }

    @Test("a loudest note shows its track's colour at its pitch and time, and its row stays the lane's colour elsewhere")
    func noteWhereItPlays() throws {
        let (picture, notes, lane) = try drawnTake()
        let orange = PianoRollRenderer.color(ofTrack: 1, in: notes)
        // G4 (67), velocity 127: opaque, from 2 s to 2.25 s on an axis of 0…4 s.
        let note = centre(pitch: 67, start: 2, end: 2.25, notes: notes, box: lane, from: 0, to: 4)
        #expect(picture.shows(orange, x: note.x, y: note.y))
        let later = centre(pitch: 67, start: 3.5, end: 3.5, notes: notes, box: lane, from: 0, to: 4)
        #expect(picture.shows(Palette.lane, x: later.x, y: later.y))
    }

    @Test("each track with notes gets a colour of its own")
    func colourPerTrack() throws {
        let (picture, notes, lane) = try drawnTake()
        #expect(PianoRollRenderer.color(ofTrack: 1, in: notes) != PianoRollRenderer.color(ofTrack: 2, in: notes))
        // The bass note (track 2, C2) at 2 s: the second colour, lighter for its velocity 90.
        let bass = centre(pitch: 36, start: 1.9, end: 2.1, notes: notes, box: lane, from: 0, to: 4)
        let p = picture.pixel(x: bass.x, y: bass.y)
        #expect(p.b > p.r && p.b > p.g, "\(p)")
        #expect(!picture.shows(PianoRollRenderer.color(ofTrack: 2, in: notes), x: bass.x, y: bass.y))
    }

    @Test("--start and --end show the notes of that span across the whole lane")
    func zoomed() throws {
        let (picture, notes, lane) = try drawnTake(options: PlotOptions(width: Self.width, height: Self.height, start: 1.5, end: 2.5))
        let note = centre(pitch: 67, start: 2, end: 2.25, notes: notes, box: lane, from: 1.5, to: 2.5)
        #expect(picture.shows(PianoRollRenderer.color(ofTrack: 1, in: notes), x: note.x, y: note.y))
    }

    @Test("plot FILE --midi draws FILE.mid's notes in a lane under the waveform, on the waveform's time axis")
    func underWaveform() throws {
        let scratch = try Scratch()
        let input = try scratch.wav("take.wav", sine(frames: 48000 * 4, channels: 1, sampleRate: 48000, frequency: 100, amplitude: 0.5),
                                    channels: 1, sampleRate: 48000)
        try scratch.bytes("take.mid", jackwaveTake().bytes)
        try Plot.draw(input, to: scratch.file("out.png"), options: PlotOptions(width: Self.width, height: 400, midi: true))
        let picture = decodedPNG(scratch.file("out.png"))
        let layout = PlotLayout(width: Self.width, height: 400, lanes: 2)
        let notes = try MidiNotes.read(path: scratch.file("take.mid"))
        let note = centre(pitch: 67, start: 2, end: 2.25, notes: notes, box: layout.lane(1), from: 0, to: 4)
        #expect(picture.shows(PianoRollRenderer.color(ofTrack: 1, in: notes), x: note.x, y: note.y))
        // The waveform's lane above keeps its own colours: no row of it at that time is the note's.
        let waveform = layout.lane(0)
        let orange = PianoRollRenderer.color(ofTrack: 1, in: notes)
        #expect(!(Int(waveform.y)..<Int(waveform.bottom)).contains { picture.shows(orange, x: note.x, y: $0) })
    }

    @Test("--midi without a MIDI file beside the recording is bad input naming the missing file, and creates nothing")
    func missingBeside() throws {
        let scratch = try Scratch()
        let input = try scratch.wav("take.wav", [Float](repeating: 0.1, count: 8000), channels: 1, sampleRate: 8000)
        do {
            try Plot.draw(input, to: scratch.file("out.png"), options: PlotOptions(midi: true))
            Issue.record("drawn")
        } catch {
            #expect(error.kind == .badInput)
            #expect(error.message.plain.hasPrefix(scratch.file("take.mid") + ": no such file"), "\(error.message.plain)")
        }
        #expect(scratch.contents == ["take.wav"])
    }

    @Test("a damaged MIDI file is bad input and creates nothing")
    func damagedCreatesNothing() throws {
        let scratch = try Scratch()
        let input = try scratch.bytes("take.mid", Array(jackwaveTake().bytes.dropLast(5)))
        do {
            try Plot.draw(input, to: scratch.file("out.png"))
            Issue.record("drawn")
        } catch {
            #expect(error.kind == .badInput)
        }
        #expect(scratch.contents == ["take.mid"])
    }

    @Test("--midi with a level stream is bad input")
    func midiWithLevelStream() throws {
        let scratch = try Scratch()
        let input = try scratch.text("levels.csv", "frame,time,in_1\n0,0.0,0.5\n4800,0.1,0.5\n")
        #expect(throws: PlotError.self) { try Plot.draw(input, to: scratch.file("out.png"), options: PlotOptions(midi: true)) }
    }

    @Test("the lane spans the notes' pitches two semitones wider each way, and at least 13 semitones")
    func pitchSpan() {
        let wide = MidiNotes(notes: [36, 67].map { MidiNotes.Note(track: 0, channel: 0, pitch: $0, velocity: 1, start: 0, duration: 1) },
                             trackNames: [nil], length: 1)
        #expect(PianoRollRenderer.pitches(of: wide) == 34...69)
        let one = MidiNotes(notes: [MidiNotes.Note(track: 0, channel: 0, pitch: 60, velocity: 1, start: 0, duration: 1)],
                            trackNames: [nil], length: 1)
        #expect(PianoRollRenderer.pitches(of: one).count == 13)
        #expect(PianoRollRenderer.pitches(of: one).contains(60))
        let top = MidiNotes(notes: [MidiNotes.Note(track: 0, channel: 0, pitch: 127, velocity: 1, start: 0, duration: 1)],
                            trackNames: [nil], length: 1)
        #expect(PianoRollRenderer.pitches(of: top) == 115...127)
    }
}
