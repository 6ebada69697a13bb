import CGlibcExtras
import CSMF
import Glibc

/// libsmf.so.0, loaded with `dlopen` when the first MIDI file is made, not linked: a run
/// without MIDI never maps it, nor the GLib it brings, whose constructors allocate at load
/// time (before an `LD_PRELOAD`ed RealtimeSanitizer has started, which then crashed).
enum SMFLibrary {
    /// The table of libsmf's functions (`jackwave_smf_load`, in CSMF/shim.h), or why it could
    /// not be loaded; loaded once. `nonisolated(unsafe)`: written only by the initialiser.
    nonisolated(unsafe) static let loaded: Result<UnsafePointer<jackwave_smf>, MidiFileError> = {
        let table = UnsafeMutablePointer<jackwave_smf>.allocate(capacity: 1)
        if let reason = jackwave_smf_load(table) {
            table.deallocate()
            return .failure(MidiFileError("cannot load libsmf, which MIDI files are written with (\(String(cString: reason)))"))
        }
        return .success(UnsafePointer(table))
    }()
}

/// A Standard MIDI File being written, through libsmf (wrapped here, once): type 1, a
/// conductor track with the tempo (`MidiTiming`), then one track per MIDI input, named.
///
/// libsmf builds a whole file at a time and writes it to a path it opens itself. jackwave's
/// files are created and locked by `CreatedFile` and must keep their inode (retention and the
/// lock follow it), so libsmf saves into an anonymous memory file (`memfd_create`), and
/// `image` hands those bytes back for the caller to write where they belong.
final class MidiFileWriter {
    private let lib: jackwave_smf
    private let smf: OpaquePointer
    /// The conductor, then one per input.
    private let tracks: [OpaquePointer]
    /// Where libsmf saves; reused for every image.
    private let memory: Int32
    /// The last tick of any event added.
    private(set) var lastTick = 0

    /// A file with a track for each name, on `timing`'s clock.
    init(trackNames: [String], timing: MidiTiming) throws(MidiFileError) {
        let lib = try SMFLibrary.loaded.get().pointee
        self.lib = lib
        guard let smf = lib.smf_new() else { throw MidiFileError("libsmf could not make a file") }
        self.smf = smf
        memory = jackwave_memory_file("jackwave-midi")
        guard memory >= 0, lib.smf_set_format(smf, 1) == 0, lib.smf_set_ppqn(smf, Int32(timing.division)) == 0 else {
            lib.smf_delete(smf)
            if memory >= 0 { close(memory) }
            throw MidiFileError("libsmf could not make a file")
        }
        var made: [OpaquePointer] = []
        for _ in 0...trackNames.count {
            guard let track = lib.smf_track_new() else {
                lib.smf_delete(smf)
                close(memory)
                throw MidiFileError("libsmf could not make a track")
            }
            lib.smf_add_track(smf, track)
            made.append(track)
        }
        tracks = made
        var tempo: [UInt8] = [0xFF, 0x51, 0x03, UInt8(timing.tempo >> 16 & 0xFF), UInt8(timing.tempo >> 8 & 0xFF), UInt8(timing.tempo & 0xFF)]
        if let event = lib.smf_event_new_from_pointer(&tempo, Int32(tempo.count)) { lib.smf_track_add_event_pulses(made[0], event, 0) }
        for (i, name) in trackNames.enumerated() {
            // A name is outside text (a port's name): printable ASCII only, bounded.
            let clean = String(name.unicodeScalars.prefix(Self.maximumNameLength).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
            if let event = lib.smf_event_new_textual(0x03, clean) { lib.smf_track_add_event_pulses(made[i + 1], event, 0) }
        }
    }

    deinit {
        lib.smf_delete(smf)
        close(memory)
    }

    /// Longest track name kept.
    static let maximumNameLength = 200

    /// Adds a message to input `input`'s track at `tick` (not before the track's last).
    func add(_ bytes: [UInt8], input: Int, tick: Int) {
        guard input + 1 < tracks.count, !bytes.isEmpty else { return }
        var copy = bytes
        guard let event = lib.smf_event_new_from_pointer(&copy, Int32(copy.count)) else { return }
        lib.smf_track_add_event_pulses(tracks[input + 1], event, Int32(tick))
        lastTick = max(lastTick, tick)
    }

    /// The whole file as it stands, every track ending at `endTick` (or at its last event):
    /// the bytes to write.
    func image(endTick: Int) throws(MidiFileError) -> [UInt8] {
        let end = Int32(max(endTick, lastTick))
        for track in tracks {
            guard lib.smf_track_add_eot_pulses(track, end) == 0 else { throw MidiFileError("libsmf could not end a track") }
        }
        // The end of each track goes again, so that later events can follow.
        defer {
            for track in tracks {
                if let last = lib.smf_track_get_last_event(track), lib.smf_event_is_eot(last) != 0 {
                    lib.smf_event_remove_from_track(last)
                    lib.smf_event_delete(last)
                }
            }
        }
        guard lib.smf_save(smf, "/proc/self/fd/\(memory)") == 0 else { throw MidiFileError("libsmf could not write the file") }
        var info = stat()
        guard fstat(memory, &info) == 0 else { throw MidiFileError("cannot read the file libsmf wrote") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let got = bytes.withUnsafeMutableBytes { pread(memory, $0.baseAddress, $0.count, 0) }
        guard got == bytes.count else { throw MidiFileError("cannot read the file libsmf wrote") }
        return bytes
    }
}

/// Why a MIDI file could not be made or written: one line.
struct MidiFileError: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
