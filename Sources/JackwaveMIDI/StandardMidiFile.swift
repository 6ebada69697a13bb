import Glibc

/// A Standard MIDI File (SMF 1.0) as jackwave writes one beside a recording, its bytes made
/// here: type 1, a conductor track with the tempo (`MidiTiming`: one tick is one frame), then
/// one track per MIDI input, named. The format is small and fully specified, and the library
/// jackwave used before (libsmf) aborted the process on files it had written itself.
///
/// Every message keeps its status byte (no running status on output). A SysEx is an `F0`
/// event with its length; system common and real-time messages, which a file has no event
/// for, go as `F7` escapes (the bytes to send, as they are). System Reset (`FF`) cannot be
/// stored: in a file `FF` starts a meta event.
///
/// Each track ends where the audio ends, and a wait longer than a delta time holds is
/// bridged with events that change nothing: the tempo restated in the conductor, an empty
/// text event in an input's track (`MidiTrackChunk`).
package final class StandardMidiFile {
    /// The conductor, then one per input.
    private var tracks: [MidiTrackChunk]
    private let header: [UInt8]
    /// The bytes of every track's events, for the bound.
    private(set) var eventBytes = 0
    /// The latest event's tick, in any track.
    private(set) var lastTick = 0

    /// What the descriptor holds as last written: each track's body bytes and its ending,
    /// and the file's size. Nil before the first writing and after a writing that failed
    /// part way, after which the whole file is written again.
    private struct Written {
        var bodies: [Int]
        var endings: [[UInt8]]
        var size: Int
    }
    private var written: Written?

    /// Longest track name kept.
    static let maximumNameLength = 200
    /// The last tick an event or an end may have: 2^40, 66 days at 192 kHz. It bounds the
    /// bridges a track may need (4096, 40 KiB).
    package static let maximumTick = 1 << 40
    /// The most bytes of events a file holds: with its headers and endings it stays under the
    /// 64 MiB `jackwave plot` reads (JACKWAVE_SMF_MAX_BYTES), and memory stays bounded
    /// however long the SysEx an input sends.
    static let maximumEventBytes = 60 << 20

    /// A file with a track for each name, on `timing`'s clock; throws for a clock or a
    /// number of tracks the header cannot hold.
    package init(trackNames: [String], timing: MidiTiming) throws(MidiFileError) {
        guard timing.division >= 1, timing.division <= 0x7FFF, timing.tempo >= 1, timing.tempo <= 0xFF_FFFF else {
            throw MidiFileError("no Standard MIDI File clock has \(timing.division) ticks per \(timing.tempo) µs")
        }
        guard trackNames.count < 0xFFFF else { throw MidiFileError("\(trackNames.count) MIDI tracks are more than a file holds") }
        header = Array("MThd".utf8) + Self.bigEndian(6, bytes: 4) + [0, 1] + Self.bigEndian(trackNames.count + 1, bytes: 2)
            + Self.bigEndian(timing.division, bytes: 2)
        let tempo = [0xFF, 0x51, 0x03] + Self.bigEndian(timing.tempo, bytes: 3)
        // The tempo restated changes nothing: what bridges the conductor's waits.
        var conductor = MidiTrackChunk(bridge: tempo)
        conductor.append(tempo, at: 0)
        tracks = [conductor]
        for name in trackNames {
            // An empty text event: an annotation of nothing. Players ignore text, every
            // reader parses it, and unlike a name or a marker it claims nothing.
            var track = MidiTrackChunk(bridge: [0xFF, 0x01, 0x00])
            // A name is outside text (a port's name): printable ASCII only, bounded.
            let clean = name.unicodeScalars.prefix(Self.maximumNameLength).map { $0.value >= 0x20 && $0.value < 0x7F ? UInt8($0.value) : UInt8(ascii: "?") }
            var event: [UInt8] = [0xFF, 0x03]
            VariableLengthQuantity.append(clean.count, to: &event)
            track.append(event + clean, at: 0)
            tracks.append(track)
        }
        eventBytes = tracks.reduce(0) { $0 + $1.body.count }
    }

    /// The event a file holds for one MIDI message (as `MidiAssembler` makes them: a channel
    /// message with its status, a whole SysEx, a system common or real-time message), without
    /// its delta time; nil for what is no message or cannot be stored.
    package static func event(for message: [UInt8]) -> [UInt8]? {
        guard let status = message.first, status >= 0x80 else { return nil }
        let data = message.dropFirst()
        switch status {
        case 0xF0:
            // F0, its length (the bytes after F0, F7 included), those bytes.
            guard message.count >= 2, message.last == 0xF7, data.dropLast().allSatisfy({ $0 < 0x80 }),
                  let length = VariableLengthQuantity.bytes(message.count - 1) else { return nil }
            return [0xF0] + length + data
        case 0xF7, 0xFF:
            // A lone end of exclusive is no message; a System Reset would read as a meta event.
            return nil
        default:
            guard let length = MidiMessage.length(ofStatus: status), message.count == length,
                  data.allSatisfy({ $0 < 0x80 }) else { return nil }
            // A system common or real-time message is escaped: F7, its length, its bytes.
            return status < 0xF0 ? message : [0xF7, UInt8(length)] + message
        }
    }

    /// Adds `message` to input `input`'s track at `tick` (not before the track's last: an
    /// earlier one goes at the last's tick); false, and nothing added, for a message a file
    /// cannot hold (`event(for:)`), an input or tick out of range, or a file full.
    package func add(_ message: [UInt8], input: Int, tick: Int) -> Bool {
        guard input >= 0, input < tracks.count - 1, tick >= 0, tick <= Self.maximumTick,
              let event = Self.event(for: message), eventBytes + event.count <= Self.maximumEventBytes else { return false }
        let before = tracks[input + 1].body.count
        tracks[input + 1].append(event, at: tick)
        eventBytes += tracks[input + 1].body.count - before
        lastTick = max(lastTick, tracks[input + 1].lastTick)
        return true
    }

    /// The whole file, every track ending at `endTick` (or at the latest event).
    package func image(endTick: Int) -> [UInt8] {
        let endings = self.endings(at: endTick)
        var bytes = header
        for (track, ending) in zip(tracks, endings) { bytes += Self.chunk(track, ending) }
        return bytes
    }

    /// Each track's ending for a file that ends at `endTick`: all end together, not before
    /// the latest event nor after `maximumTick`.
    private func endings(at endTick: Int) -> [[UInt8]] {
        let end = min(max(endTick, lastTick), Self.maximumTick)
        return tracks.map { $0.ending(at: end) }
    }

    /// Brings the file on `descriptor` (always the same one) up to date, every track ending
    /// at `endTick`; throws what failed, after which the next call writes the whole file.
    ///
    /// A process killed at any moment must leave a file that reads with every event up to
    /// the last writing, on its own inode (no temporary file renamed over it). So each
    /// writing changes only what changed, in an order that keeps the file readable between
    /// any two of its writes:
    /// - a track whose events and ending's size are as written gets its new ending written
    ///   over its old one (a few bytes, one write);
    /// - the last track's new events go on at its end: first what lies past the file's end
    ///   (no reader looks there), then the chunk's length, then the few bytes over its old
    ///   ending. Between the last two the chunk holds its old End of Track, the new bytes
    ///   after it: a reader stops at End of Track (midicsv, libsmf and `jackwave plot` do)
    ///   and reads the file as it was; the other order would leave a track without one. A
    ///   recording with one MIDI input writes only these, however long the file;
    /// - any other growth moves the tracks after it: they are written again from memory, in
    ///   one write (as costly as copying them, and rarer: an earlier input's events, a
    ///   delta time that needs a byte more). A kill can cut a write that long between two
    ///   pages: this is the one case where a crash may cost the file.
    package func write(to descriptor: Int32, endTick: Int) throws(MidiFileError) {
        let endings = self.endings(at: endTick)
        do throws(MidiFileError) {
            if let old = written, old.bodies.count == tracks.count {
                try update(descriptor, from: old, endings: endings)
            } else {
                var bytes = header
                for (track, ending) in zip(tracks, endings) { bytes += Self.chunk(track, ending) }
                try Self.put(bytes, descriptor, at: 0)
                guard ftruncate(descriptor, off_t(bytes.count)) == 0 else { throw MidiFileError("cannot set its size: \(String(cString: strerror(errno)))") }
            }
        } catch {
            written = nil
            throw error
        }
        let size = header.count + zip(tracks, endings).reduce(0) { $0 + 8 + $1.0.body.count + $1.1.count }
        written = Written(bodies: tracks.map(\.body.count), endings: endings, size: size)
    }

    /// The writings `write` describes, from what the descriptor holds (`old`).
    private func update(_ descriptor: Int32, from old: Written, endings: [[UInt8]]) throws(MidiFileError) {
        var offset = header.count
        var moved = 0
        // The tracks before the first that grew keep their place: only their endings change.
        while moved < tracks.count {
            let body = tracks[moved].body.count
            guard body == old.bodies[moved], endings[moved].count == old.endings[moved].count else { break }
            if endings[moved] != old.endings[moved] { try Self.put(endings[moved], descriptor, at: offset + 8 + body) }
            offset += 8 + body + endings[moved].count
            moved += 1
        }
        guard moved < tracks.count else { return }
        let track = tracks[moved]
        let onDisk = old.bodies[moved], oldEnding = old.endings[moved].count
        let tail = Array(track.body[onDisk...]) + endings[moved]
        if moved == tracks.count - 1 && tail.count >= oldEnding {
            let at = offset + 8 + onDisk
            if tail.count > oldEnding { try Self.put(tail[oldEnding...], descriptor, at: at + oldEnding) }
            try Self.put(Self.bigEndian(track.body.count + endings[moved].count, bytes: 4), descriptor, at: offset + 4)
            try Self.put(tail[..<oldEnding], descriptor, at: at)
            return
        }
        var bytes: [UInt8] = []
        for k in moved..<tracks.count { bytes += Self.chunk(tracks[k], endings[k]) }
        try Self.put(bytes, descriptor, at: offset)
        if offset + bytes.count < old.size, ftruncate(descriptor, off_t(offset + bytes.count)) != 0 {
            throw MidiFileError("cannot set its size: \(String(cString: strerror(errno)))")
        }
    }

    /// One MTrk chunk: its header, the track's events, its ending.
    private static func chunk(_ track: MidiTrackChunk, _ ending: [UInt8]) -> [UInt8] {
        Array("MTrk".utf8) + bigEndian(track.body.count + ending.count, bytes: 4) + track.body + ending
    }

    /// Writes all of `bytes` at `offset`.
    private static func put<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ descriptor: Int32, at offset: Int) throws(MidiFileError) {
        let contiguous = Array(bytes)
        var done = 0
        while done < contiguous.count {
            let n = contiguous.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw MidiFileError("write failed: \(String(cString: strerror(n < 0 ? errno : ENOSPC)))") }
            done += n
        }
    }

    /// `value`'s low `bytes` bytes, most significant first.
    private static func bigEndian(_ value: Int, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// Why a MIDI file could not be made or written: one line.
package struct MidiFileError: Error, Sendable {
    package let message: String
    package init(_ message: String) { self.message = message }
}
