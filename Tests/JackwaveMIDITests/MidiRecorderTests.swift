import Foundation
import JackwaveDSP
@testable import JackwaveMIDI
import JackwaveRecording
import JackwaveRunSupport
import JackwaveTestSupport
import Testing

/// The recorder offline, as the writer drives it: events put in the ring ahead of the
/// writer, then the files begun, reached and ended at known frames; the `.mid` files read
/// back by midicsv.
@Suite("MidiRecorder")
struct MidiRecorderTests {
    let dir = temporaryDirectory()
    let messages = MessageQueue()
    let ring = SPSCRing<MidiRecord>(minimumCapacity: 1024, width: 1)

    func recorder(lookBack: Int64 = 0, controlInput: Int? = nil, marker: MidiMarkerTrigger? = nil,
                  onMarker: (@Sendable (Int64) -> Void)? = nil) -> MidiRecorder {
        let settings = MidiRecordingSettings(trackNames: ["a:out"], controlInput: controlInput, marker: marker, inputRate: 48000,
                                             fileRate: 48000, policy: .new, lookBackFrames: lookBack)
        let recorder = MidiRecorder(settings: settings, messages: messages, events: nil, onMarker: onMarker)
        recorder.attach(ring: ring, timelineBase: 0)
        return recorder
    }

    /// A sound file of the take, open (`endFrame` at its first) or ended.
    func file(_ name: String, piece: Int = 1, first: Int64, end: Int64? = nil) -> RecordedFile {
        RecordedFile(path: dir + "/" + name, take: 0, piece: piece, firstFrame: first, endFrame: end ?? first,
                     frames: end.map { $0 - first } ?? 0, ok: true)
    }

    /// Two pieces cut at frame 1000: a note held across the cut, a controller set before
    /// it, events right before and right at the cut.
    func twoPieces() throws -> (MidiRecorder, MidiCSV, MidiCSV) {
        let r = recorder()
        let events: [(Int64, [UInt8])] = [
            (10, [0x90, 0x3C, 0x64]),   // held across the cut
            (100, [0xB0, 0x07, 0x64]),
            (500, [0x90, 0x40, 0x50]), (600, [0x80, 0x40, 0x40]),
            (999, [0xB0, 0x01, 0x10]),  // the first piece's last frame
            (1000, [0x90, 0x48, 0x30]), // the second's first
            (1200, [0x80, 0x3C, 0x40]),
            (1500, [0x90, 0x43, 0x60]), // sounding at the end
            (1800, [0x80, 0x48, 0x40]),
        ]
        // The callback runs ahead of the writer: every event is in the ring already.
        for (frame, bytes) in events { try #require(put(ring, frame: frame, bytes)) }
        r.fileBegan(file("take-001.wav", first: 0))
        r.reached(400)
        r.fileEnded(file("take-001.wav", first: 0, end: 1000))
        r.fileBegan(file("take-002.wav", piece: 2, first: 1000))
        r.reached(2000)
        r.fileEnded(file("take-002.wav", piece: 2, first: 1000, end: 2000))
        return (r, try MidiCSV(dir + "/take-001.mid"), try MidiCSV(dir + "/take-002.mid"))
    }

    @Test("each event is in the piece that holds its frame, at tick = frame - the piece's first frame")
    func eventsAtTheirFrames() throws {
        let (_, first, second) = try twoPieces()
        #expect(first.track(2).filter { $0.tick < 999 } == [at(10, 0x90, 0x3C, 0x64), at(100, 0xB0, 0x07, 0x64),
                                                             at(500, 0x90, 0x40, 0x50), at(600, 0x80, 0x40, 0x40)])
        #expect(first.track(2).filter { $0.tick == 999 }.first == at(999, 0xB0, 0x01, 0x10))
        #expect(second.track(2).filter { $0.tick > 0 && $0.tick < 999 } == [at(200, 0x80, 0x3C, 0x40), at(500, 0x90, 0x43, 0x60),
                                                                             at(800, 0x80, 0x48, 0x40)])
        #expect(second.track(2).filter { $0.tick == 0 }.last == at(0, 0x90, 0x48, 0x30))
    }

    @Test("a note held across the cut ends at the first piece's last tick and starts again at tick 0 of the second, after the controllers")
    func heldNoteIsChased() throws {
        let (r, first, second) = try twoPieces()
        #expect(first.track(2).filter { $0.tick == 999 } == [at(999, 0xB0, 0x01, 0x10), at(999, 0x80, 0x3C, 0x40)])
        #expect(second.track(2).filter { $0.tick == 0 } == [at(0, 0xB0, 0x01, 0x10), at(0, 0xB0, 0x07, 0x64), at(0, 0x90, 0x3C, 0x64),
                                                            at(0, 0x90, 0x48, 0x30)])
        // The note still sounding at the end of the second piece is ended at its last tick.
        #expect(second.track(2).last == at(999, 0x80, 0x43, 0x40))
        #expect(r.snapshot.chasedNotes == 1)
    }

    @Test("each track ends at the piece's length, on the 480-tick, 10000 µs clock, named for its port")
    func trackLengthsAndHeader() throws {
        let (_, first, second) = try twoPieces()
        for file in [first, second] {
            #expect(file.ends == [1: 1000, 2: 1000])
            #expect(file.division == 480)
            #expect(file.tempos == [10_000])
            #expect(file.names[2] == "a:out")
        }
    }

    @Test("each .mid is named as its sound file, and the totals count the events, files and chased notes")
    func namesAndTotals() throws {
        let (r, _, _) = try twoPieces()
        let totals = r.snapshot
        #expect(totals.recorded == [9])
        #expect(totals.lost == [0] && totals.malformed == [0] && totals.unrecordable == [0])
        #expect(totals.files == 2)
        #expect(totals.firstFile == dir + "/take-001.mid")
        #expect(totals.lastFile == dir + "/take-002.mid")
        #expect(totals.chasedNotes == 1)
        #expect(messages.drain().isEmpty)
    }

    @Test("the .mid beside a sound file is its name with .mid", arguments: [
        ("/rec/take-003-002.wav", "/rec/take-003-002.mid"), ("take.flac", "take.mid"), ("/rec/a.b.w64", "/rec/a.b.mid"),
        ("/rec.d/noext", "/rec.d/noext.mid"), ("/take.wav", "/take.mid"),
    ])
    func midiPathBeside(audio: String, midi: String) {
        #expect(MidiRecordingSettings.midiPath(beside: audio) == midi)
    }

    @Test("with policy .new a .mid in the way is left as it was, and the recorder says so on the message queue")
    func existingFileIsNotOverwritten() throws {
        let path = dir + "/take-001.mid"
        let before = Data("not ours".utf8)
        try before.write(to: URL(fileURLWithPath: path))
        let r = recorder()
        try #require(put(ring, frame: 10, [0x90, 0x3C, 0x64]))
        r.fileBegan(file("take-001.wav", first: 0))
        r.reached(1000)
        r.fileEnded(file("take-001.wav", first: 0, end: 1000))
        let said = messages.drain().map(\.plain)
        #expect(said.count == 1)
        #expect(said.first.map { $0.hasPrefix("MIDI: ") && $0.contains(path) } == true, "\(said)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(r.snapshot.files == 0 && r.snapshot.recorded == [0])
    }

    @Test("a piece that begins before the writer's position (a take's pre-roll) gets the events since its first frame, and chases those before it")
    func pieceInThePastGetsItsEvents() throws {
        let r = recorder(lookBack: 2000)
        for (frame, bytes) in [(Int64(100), [0x90, 0x3C, 0x64] as [UInt8]), (500, [0xB0, 0x07, 0x50]), (1500, [0x80, 0x3C, 0x40])] {
            try #require(put(ring, frame: frame, bytes))
        }
        // Armed: the writer has reached 1000 with no file open; the take then begins at 300.
        r.reached(1000)
        r.fileBegan(file("take-001.wav", first: 300))
        r.reached(2000)
        r.fileEnded(file("take-001.wav", first: 300, end: 2000))
        let mid = try MidiCSV(dir + "/take-001.mid")
        #expect(mid.track(2) == [at(0, 0x90, 0x3C, 0x64), at(200, 0xB0, 0x07, 0x50), at(1200, 0x80, 0x3C, 0x40)])
        #expect(mid.ends[2] == 1700)
        #expect(r.snapshot.recorded == [2])
        #expect(r.snapshot.chasedNotes == 1)
    }

    @Test("events outside every file are counted outside, once no file can still want them")
    func eventsBetweenTakesAreOutside() throws {
        let r = recorder(lookBack: 100)
        try #require(put(ring, frame: 50, [0x90, 0x3C, 0x64]))
        try #require(put(ring, frame: 60, [0x80, 0x3C, 0x40]))
        r.reached(150)
        #expect(r.snapshot.outside == [0])
        r.reached(161)
        #expect(r.snapshot.outside == [2])
        #expect(r.snapshot.recorded == [0] && r.snapshot.files == 0)
    }

    @Test("the control input's MMC commands are counted by name and said, not recorded")
    func machineControlIsCounted() throws {
        let r = recorder(controlInput: 1)
        try #require(put(ring, frame: 4800, port: 1, [0xF0, 0x7F, 0x7F, 0x06, 0x06, 0xF7]))
        try #require(put(ring, frame: 9600, port: 1, [0xF0, 0x7F, 0x7F, 0x06, 0x44, 0x06, 0x01, 0, 0, 0, 0, 0, 0xF7]))
        r.fileBegan(file("take-001.wav", first: 0))
        r.reached(10_000)
        r.fileEnded(file("take-001.wav", first: 0, end: 10_000))
        #expect(r.snapshot.commands == ["record_strobe": 1, "ignored": 1])
        #expect(r.snapshot.lastCommand == "ignored")
        #expect(r.snapshot.recorded == [0])
        let said = messages.drain().map(\.plain)
        #expect(said.count == 2)
        #expect(said.first == "MMC RECORD STROBE at 0.100 s")
        #expect(said.last.map { $0.hasPrefix("MMC command 0x44 at 0.200 s ignored") } == true, "\(said)")
        #expect(try MidiCSV(dir + "/take-001.mid").track(2).isEmpty)
    }

    @Test("a pedal held on the control input drops one marker, at its press")
    func heldPedalDropsOneMarker() throws {
        let markers = Markers()
        let r = recorder(controlInput: 1, marker: .controller(64), onMarker: { markers.add($0) })
        for (frame, value) in [(Int64(100), UInt8(127)), (200, 100), (300, 0), (400, 64)] {
            try #require(put(ring, frame: frame, port: 1, [0xB0, 64, value]))
        }
        r.reached(1000)
        #expect(markers.frames == [100, 400])
    }

    final class Markers: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Int64] = []
        func add(_ frame: Int64) { lock.withLock { list.append(frame) } }
        var frames: [Int64] { lock.withLock { list } }
    }
}
