import Glibc
import JackwaveSoundFiles

/// One `.mid` file of a recording, beside one sound file: created and locked as every file
/// jackwave makes (`CreatedFile`), and brought up to date in place (`StandardMidiFile.write`),
/// so that after a crash it reads back as the file it was at the last refresh.
final class MidiPiece {
    let path: String
    private let descriptor: Int32
    /// Its first frame on the run's timeline: tick 0.
    let firstFrame: Int64
    private let file: StandardMidiFile
    /// Each input's state as this piece has played it, for the notes it must end.
    private var chase: [ChaseState]
    /// Events written, per input, and the notes started again at its tick 0.
    private(set) var events: [Int]
    let chasedNotes: Int
    /// What the file holds on disk is as of this end, with nothing added since.
    private var writtenEnd: Int?
    /// The most events a piece holds: beyond it (or beyond the bytes a file holds,
    /// `StandardMidiFile.maximumEventBytes`), events are counted as lost and said once
    /// (`MidiRecorder`). Two hours of MIDI clock; a file of a few MB.
    static let maximumEvents = 500_000

    /// Creates `path` (as `policy` says) for a piece starting at `firstFrame`, one track per
    /// input named by `trackNames`, opening with each input's `state` (`ChaseState.opening`).
    init(path: String, policy: CreatedFile.Policy, firstFrame: Int64, trackNames: [String], timing: MidiTiming,
         state: [ChaseState]) throws(MidiFileError) {
        file = try StandardMidiFile(trackNames: trackNames, timing: timing)
        do throws(CreatedFileError) {
            descriptor = try CreatedFile.open(path, policy: policy)
        } catch {
            throw MidiFileError("\(error.path): \(error.reason)")
        }
        self.path = path
        self.firstFrame = firstFrame
        chase = state
        events = Array(repeating: 0, count: trackNames.count)
        var chased = 0
        for (input, s) in state.enumerated() {
            for message in s.opening {
                if file.add(message, input: input, tick: 0), message.first.map({ $0 & 0xF0 == 0x90 }) ?? false { chased += 1 }
            }
        }
        chasedNotes = chased
    }

    deinit { close(descriptor) }

    var eventCount: Int { events.reduce(0, +) }

    /// Adds `message` at `tick`; false once the piece is full, and for a message no file can
    /// hold (`StandardMidiFile.event(for:)`: the recorder hands none over).
    func add(_ message: MidiMessage, tick: Int) -> Bool {
        guard eventCount < Self.maximumEvents, message.port >= 0, message.port < chase.count,
              file.add(message.bytes, input: message.port, tick: tick) else { return false }
        chase[message.port].apply(message)
        events[message.port] += 1
        writtenEnd = nil
        return true
    }

    /// Writes the file as it stands, its tracks `lengthTicks` long; throws what failed.
    func refresh(lengthTicks: Int) throws(MidiFileError) {
        guard writtenEnd != lengthTicks else { return }
        do throws(MidiFileError) {
            try file.write(to: descriptor, endTick: lengthTicks)
        } catch {
            throw MidiFileError("\(path): \(error.message)")
        }
        writtenEnd = lengthTicks
    }

    /// Ends the piece `lengthTicks` long: its sounding notes ended and its pedals let go at
    /// its last tick, then written a last time.
    func finish(lengthTicks: Int) throws(MidiFileError) {
        let last = lengthTicks > 0 ? lengthTicks - 1 : 0
        for (input, s) in chase.enumerated() {
            for message in s.closing { _ = file.add(message, input: input, tick: last) }
        }
        writtenEnd = nil
        try refresh(lengthTicks: lengthTicks)
    }
}
