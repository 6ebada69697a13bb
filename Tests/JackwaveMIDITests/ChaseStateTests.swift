@testable import JackwaveMIDI
import Testing

/// What an input has sounding and held, and how a cut ends it (`closing`) and a new piece
/// sets it again (`opening`).
@Suite("ChaseState")
struct ChaseStateTests {
    /// The state after `messages`, in order.
    func state(_ messages: [UInt8]...) -> ChaseState {
        var s = ChaseState()
        for m in messages { s.apply(MidiMessage(frame: 0, port: 0, bytes: m)) }
        return s
    }

    @Test("a new state has nothing to close or open")
    func emptyState() {
        #expect(ChaseState().closing.isEmpty)
        #expect(ChaseState().opening.isEmpty)
    }

    @Test("closing ends each sounding note with a note-off of velocity 64 and lets go of pedals 64, 66, 67 held at 64 or more")
    func closingEndsNotesAndReleasesPedals() {
        let s = state([0x90, 0x3C, 0x64], [0x91, 0x40, 0x50], [0x90, 0x30, 0x01],
                      [0xB0, 64, 127], [0xB0, 66, 64], [0xB0, 67, 63],  // soft pedal just below: not held
                      [0xB1, 64, 10], [0xB1, 67, 100], [0xB0, 65, 127]) // 65 (portamento) is no pedal
        #expect(s.closing == [
            [0x80, 0x30, 0x40], [0x80, 0x3C, 0x40], [0xB0, 64, 0], [0xB0, 66, 0],
            [0x81, 0x40, 0x40], [0xB1, 67, 0],
        ])
    }

    @Test("opening gives bank select (CC0, CC32), then the program, the other controllers, pitch bend, pressure, then the notes with their velocities")
    func openingOrder() {
        let s = state([0x90, 0x3C, 0x46], [0xB0, 7, 100], [0xE0, 0x00, 0x50], [0xD0, 0x30], [0xC0, 5],
                      [0xB0, 32, 2], [0xB0, 0, 1], [0xB0, 10, 64],
                      [0x91, 0x40, 0x63], [0xB1, 7, 90])
        #expect(s.opening == [
            [0xB0, 0, 1], [0xB0, 32, 2], [0xC0, 5], [0xB0, 7, 100], [0xB0, 10, 64], [0xE0, 0x00, 0x50], [0xD0, 0x30],
            [0xB1, 7, 90],
            [0x90, 0x3C, 0x46], [0x91, 0x40, 0x63],
        ])
    }

    @Test("a controller's last value is the one opened")
    func lastValueWins() {
        #expect(state([0xB2, 7, 10], [0xB2, 7, 99]).opening == [[0xB2, 7, 99]])
    }

    @Test("a pitch bend's 14 bits come back as they went in")
    func pitchBendRoundTrips() {
        #expect(state([0xE5, 0x7F, 0x01]).opening == [[0xE5, 0x7F, 0x01]])
    }

    @Test("a note-on of velocity 0 ends a note, as a note-off does")
    func velocityZeroEndsANote() {
        let s = state([0x90, 0x3C, 0x64], [0x90, 0x3E, 0x64], [0x90, 0x3C, 0x00], [0x80, 0x3E, 0x40])
        #expect(s.closing.isEmpty)
        #expect(s.opening.isEmpty)
    }

    @Test("CC 123 (all notes off) ends every note of its channel only, and leaves the pedal held")
    func allNotesOffClearsNotes() {
        let s = state([0x90, 0x3C, 0x64], [0x90, 0x3E, 0x64], [0x91, 0x40, 0x64], [0xB0, 64, 127], [0xB0, 123, 0])
        #expect(s.closing == [[0xB0, 64, 0], [0x81, 0x40, 0x40]])
        #expect(s.opening == [[0xB0, 64, 127], [0x91, 0x40, 0x64]])
    }

    @Test("CC 120 (all sound off) ends every note of its channel")
    func allSoundOffClearsNotes() {
        #expect(state([0x92, 0x3C, 0x64], [0xB2, 120, 0]).closing.isEmpty)
    }

    @Test("CC 121 resets the controllers, pitch bend and pressure, and keeps the program and the notes")
    func resetAllControllers() {
        let s = state([0xC0, 5], [0xB0, 1, 90], [0xB0, 64, 127], [0xE0, 0x00, 0x60], [0xD0, 0x30], [0x90, 0x3C, 0x64],
                      [0xB1, 1, 20], [0xB0, 121, 0])
        #expect(s.opening == [[0xC0, 5], [0xB1, 1, 20], [0x90, 0x3C, 0x64]])
        // The sustain pedal was reset: only the note is left to end.
        #expect(s.closing == [[0x80, 0x3C, 0x40]])
    }

    @Test("system and SysEx messages change nothing")
    func systemMessagesChangeNothing() {
        #expect(state([0xF8], [0xF0, 0x7E, 0xF7], [0xF2, 0x00, 0x10]) == ChaseState())
    }

    @Test("opening selects a registered parameter (CC 101, 100) before its data entry (CC 6), so a pitch-bend range survives a cut")
    func openingSelectsTheParameterBeforeItsData() {
        let s = state([0xB0, 101, 0], [0xB0, 100, 0], [0xB0, 6, 12])
        let order = s.opening.compactMap { $0.count == 3 ? Int($0[1]) : nil }
        #expect(order == [101, 100, 6], "\(order)")
    }
}
