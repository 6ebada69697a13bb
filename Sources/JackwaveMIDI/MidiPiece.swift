import Glibc
import JackwaveSoundFiles

/// One `.mid` file of a recording, beside one sound file: created and locked as every file
/// jackwave makes (`CreatedFile`), written whole from libsmf's image each time it is brought
/// up to date, so that after a crash it reads back as the file it was at the last refresh.
final class MidiPiece {
    let path: String
    private let descriptor: Int32
    /// Its first frame on the run's timeline: tick 0.
    let firstFrame: Int64
    private let writer: MidiFileWriter
    /// Each input's state as this piece has played it, for the notes it must end.
    private var chase: [ChaseState]
    /// Events written, per input, and the notes started again at its tick 0.
    private(set) var events: [Int]
    let chasedNotes: Int
    /// Bytes on disk, to trim if an image ever came out shorter.
    private var written = 0
    private var changed = true
    /// The most events a piece holds: beyond it, events are counted as lost and said once
    /// (`MidiRecorder`). libsmf holds every event in memory and rebuilds the whole file at each
    /// refresh: half a million events (two hours of MIDI clock) is a file of a few MB.
    static let maximumEvents = 500_000

    /// Creates `path` (as `policy` says) for a piece starting at `firstFrame`, one track per
    /// input named by `trackNames`, opening with each input's `state` (`ChaseState.opening`).
    init(path: String, policy: CreatedFile.Policy, firstFrame: Int64, trackNames: [String], timing: MidiTiming,
         state: [ChaseState]) throws(MidiFileError) {
        writer = try MidiFileWriter(trackNames: trackNames, timing: timing)
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
                writer.add(message, input: input, tick: 0)
                if message.first.map({ $0 & 0xF0 == 0x90 }) ?? false { chased += 1 }
            }
        }
        chasedNotes = chased
    }

    deinit { close(descriptor) }

    var eventCount: Int { events.reduce(0, +) }

    /// Adds `message` at `tick`; false once the piece is full.
    func add(_ message: MidiMessage, tick: Int) -> Bool {
        guard eventCount < Self.maximumEvents, message.port < chase.count else { return false }
        writer.add(message.bytes, input: message.port, tick: tick)
        chase[message.port].apply(message)
        events[message.port] += 1
        changed = true
        return true
    }

    /// Writes the file as it stands, its tracks `lengthTicks` long; throws what failed.
    func refresh(lengthTicks: Int) throws(MidiFileError) {
        guard changed || lengthTicks > writer.lastTick else { return }
        let image = try writer.image(endTick: lengthTicks)
        let done = image.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard done == image.count else { throw MidiFileError("\(path): write failed: \(String(cString: strerror(errno)))") }
        if image.count < written { _ = ftruncate(descriptor, off_t(image.count)) }
        written = image.count
        changed = false
    }

    /// Ends the piece `lengthTicks` long: its sounding notes ended and its pedals let go at
    /// its last tick, then written a last time.
    func finish(lengthTicks: Int) throws(MidiFileError) {
        let last = max(0, lengthTicks - 1)
        for (input, s) in chase.enumerated() {
            for message in s.closing { writer.add(message, input: input, tick: last) }
        }
        changed = true
        try refresh(lengthTicks: lengthTicks)
    }
}
