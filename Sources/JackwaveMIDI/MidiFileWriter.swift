import CGlibcExtras
import CSMF
import Glibc

/// A Standard MIDI File being written, through libsmf (wrapped here, once): type 1, a
/// conductor track with the tempo (`MidiTiming`), then one track per MIDI input, named.
///
/// libsmf builds a whole file at a time and writes it to a path it opens itself. jackwave's
/// files are created and locked by `CreatedFile` and must keep their inode (retention and the
/// lock follow it), so libsmf saves into an anonymous memory file (`memfd_create`), and
/// `image` hands those bytes back for the caller to write where they belong.
final class MidiFileWriter {
    private let smf: UnsafeMutablePointer<smf_t>
    /// The conductor, then one per input.
    private let tracks: [UnsafeMutablePointer<smf_track_t>]
    /// Where libsmf saves; reused for every image.
    private let memory: Int32
    /// The last tick of any event added.
    private(set) var lastTick = 0

    /// A file with a track for each name, on `timing`'s clock.
    init(trackNames: [String], timing: MidiTiming) throws(MidiFileError) {
        guard let smf = smf_new() else { throw MidiFileError("libsmf could not make a file") }
        self.smf = smf
        memory = jackwave_memory_file("jackwave-midi")
        guard memory >= 0, smf_set_format(smf, 1) == 0, smf_set_ppqn(smf, Int32(timing.division)) == 0 else {
            smf_delete(smf)
            if memory >= 0 { close(memory) }
            throw MidiFileError("libsmf could not make a file")
        }
        var made: [UnsafeMutablePointer<smf_track_t>] = []
        for _ in 0...trackNames.count {
            let track = smf_track_new()!
            smf_add_track(smf, track)
            made.append(track)
        }
        tracks = made
        var tempo: [UInt8] = [0xFF, 0x51, 0x03, UInt8(timing.tempo >> 16 & 0xFF), UInt8(timing.tempo >> 8 & 0xFF), UInt8(timing.tempo & 0xFF)]
        if let event = smf_event_new_from_pointer(&tempo, Int32(tempo.count)) { smf_track_add_event_pulses(made[0], event, 0) }
        for (i, name) in trackNames.enumerated() {
            // A name is outside text (a port's name): printable ASCII only, bounded.
            let clean = String(name.unicodeScalars.prefix(Self.maximumNameLength).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
            if let event = smf_event_new_textual(0x03, clean) { smf_track_add_event_pulses(made[i + 1], event, 0) }
        }
    }

    deinit {
        smf_delete(smf)
        close(memory)
    }

    /// Longest track name kept.
    static let maximumNameLength = 200

    /// Adds a message to input `input`'s track at `tick` (not before the track's last).
    func add(_ bytes: [UInt8], input: Int, tick: Int) {
        guard input + 1 < tracks.count, !bytes.isEmpty else { return }
        var copy = bytes
        guard let event = smf_event_new_from_pointer(&copy, Int32(copy.count)) else { return }
        smf_track_add_event_pulses(tracks[input + 1], event, Int32(tick))
        lastTick = max(lastTick, tick)
    }

    /// The whole file as it stands, every track ending at `endTick` (or at its last event):
    /// the bytes to write.
    func image(endTick: Int) throws(MidiFileError) -> [UInt8] {
        let end = Int32(max(endTick, lastTick))
        for track in tracks {
            guard smf_track_add_eot_pulses(track, end) == 0 else { throw MidiFileError("libsmf could not end a track") }
        }
        // The end of each track goes again, so that later events can follow.
        defer {
            for track in tracks {
                if let last = smf_track_get_last_event(track), smf_event_is_eot(last) != 0 {
                    smf_event_remove_from_track(last)
                    smf_event_delete(last)
                }
            }
        }
        guard smf_save(smf, "/proc/self/fd/\(memory)") == 0 else { throw MidiFileError("libsmf could not write the file") }
        var info = stat()
        guard fstat(memory, &info) == 0 else { throw MidiFileError("cannot read the file libsmf wrote") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let got = bytes.withUnsafeMutableBytes { pread(memory, $0.baseAddress, $0.count, 0) }
        guard got == bytes.count else { throw MidiFileError("cannot read the file libsmf wrote") }
        return bytes
    }
}

/// Why a MIDI file could not be made or written: one line.
struct MidiFileError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
