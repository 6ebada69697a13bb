import Glibc
import JackwaveMIDI
import JackwavePlot

/// The `midifile` target: MIDI as inputs send it, through the recorder's assembler into
/// jackwave's Standard MIDI File writer, brought up to date in place as a recording does;
/// then the file read back and compared with what went in, by a strict walk of its bytes
/// (every event, at its tick) and by portSMF as `jackwave plot` reads it (every note). A
/// difference is a crash: the writer lost, moved or garbled an event, or wrote a file that
/// jackwave's own reader refuses.
///
/// The input: a first byte choosing the rate (its low 3 bits) and the inputs (1–3); then
/// events, each a control byte (the input, its low 2 bits; the wait since the last event,
/// its top 6: up to 5335 frames, or 1 to 8 × 2^26: from 2^28 on, bridged), a length byte
/// (1–255) and that many bytes.
extension FuzzTarget {
    /// The file this target writes each input into, in /dev/shm (memory, not disk).
    static let midiFilePath = "/dev/shm/jackwave-fuzz-\(getpid())-written.mid"

    static func midiFile(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let config = bytes.first else { return }
        let rates = [48000, 44100, 192_000, 22050, 8000]
        let rate = rates[Int(config & 7) % rates.count]
        let inputs = 1 + Int(config >> 3) % 3
        guard let file = try? StandardMidiFile(trackNames: (0..<inputs).map { "fuzz:in\($0)" }, timing: MidiTiming(fileRate: rate)) else {
            fatalError("no file at \(rate) Hz")
        }
        let fd = open(midiFilePath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { fatalError("cannot write \(midiFilePath)") }
        defer { close(fd) }
        var assembler = MidiAssembler(ports: inputs)
        var added: [[(tick: Int, bytes: [UInt8])]] = Array(repeating: [], count: inputs)
        var frame = 0
        var i = 1
        var count = 0
        while i + 1 < bytes.count {
            let control = bytes[i], length = min(max(1, Int(bytes[i + 1])), bytes.count - i - 2)
            i += 2
            guard length > 0 else { break }
            let port = Int(control & 3) % inputs, wait = Int(control >> 2)
            frame += wait < 56 ? wait * 97 : (wait - 55) << 26
            let event = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[i..<(i + length)]))
            i += length
            assembler.take(port: port, bytes: event, continues: false, frame: Int64(frame)) { message in
                let tick = max(Int(message.frame), added[message.port].last?.tick ?? 0)
                guard file.add(message.bytes, input: message.port, tick: tick) else {
                    if tick <= StandardMidiFile.maximumTick { fatalError("the writer refused \(message.bytes), which the assembler made") }
                    return
                }
                added[message.port].append((tick, message.bytes))
            }
            count += 1
            if count % 4 == 0 {
                do { try file.write(to: fd, endTick: frame + wait * 10) } catch { fatalError("writing failed: \(error.message)") }
            }
        }
        let end = frame + 1000
        do { try file.write(to: fd, endTick: end) } catch { fatalError("writing failed: \(error.message)") }
        let image = file.image(endTick: end)
        var disk = [UInt8](repeating: 0, count: image.count + 1)
        let size = disk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard size == image.count, Array(disk.prefix(size)) == image else {
            fatalError("the file on disk (\(size) bytes) is not the file as it stands (\(image.count))")
        }
        let walked = StrictWalk(image, tracks: inputs + 1)
        for input in 0..<inputs where !walked.tracks[input + 1].elementsEqual(added[input], by: { $0.tick == $1.tick && $0.bytes == $1.bytes }) {
            fatalError("input \(input): \(added[input].count) events added, the file holds \(walked.tracks[input + 1].count) others")
        }
        // portSMF, as plot reads the file: every note-on with a velocity is a note at its tick.
        guard let notes = try? MidiNotes.read(path: midiFilePath) else { fatalError("jackwave plot refuses the file jackwave wrote") }
        let expected = added.enumerated().flatMap { input, events in
            events.filter { $0.bytes.count == 3 && $0.bytes[0] & 0xF0 == 0x90 && $0.bytes[2] > 0 }
                .map { [input + 1, Int($0.bytes[0] & 0x0F), Int($0.bytes[1]), Int($0.bytes[2]), $0.tick] }
        }
        let noted = notes.notes.map { [$0.track, $0.channel, $0.pitch, $0.velocity, Int(($0.start * Double(rate)).rounded())] }
        guard noted.sorted(by: { $0.lexicographicallyPrecedes($1) }) == expected.sorted(by: { $0.lexicographicallyPrecedes($1) }) else {
            fatalError("portSMF reads \(noted.count) notes, \(expected.count) went in")
        }
    }
}

/// A Standard MIDI File walked strictly, as jackwave promises to write one: type 1, `tracks`
/// MTrk chunks filling the file exactly, every delta time in at most four bytes, every
/// message with its status byte, End of Track last in each chunk. Anything else is a crash.
/// Each track's messages at their ticks (meta events left out; a SysEx from F0, an escape's
/// bytes alone).
struct StrictWalk {
    var tracks: [[(tick: Int, bytes: [UInt8])]] = []

    init(_ file: [UInt8], tracks count: Int) {
        var p = 0
        func fail(_ why: String) -> Never { fatalError("the file written is not a valid SMF: \(why) at byte \(p)") }
        func byte() -> UInt8 {
            guard p < file.count else { fail("the file ends early") }
            p += 1
            return file[p - 1]
        }
        func number() -> Int {
            var value = 0
            for _ in 0..<4 {
                let b = byte()
                value = value << 7 | Int(b & 0x7F)
                if b < 0x80 { return value }
            }
            fail("a number longer than four bytes")
        }
        func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in byte() } }
        guard bytes(12) == Array("MThd".utf8) + [0, 0, 0, 6, 0, 1, UInt8(count >> 8), UInt8(count & 0xFF)], bytes(2) != [0, 0] else {
            fail("not the header of a type-1 file of \(count) tracks")
        }
        for _ in 0..<count {
            guard bytes(4) == Array("MTrk".utf8) else { fail("no MTrk") }
            let length = bytes(4).reduce(0) { $0 << 8 | Int($1) }
            let end = p + length
            guard end <= file.count else { fail("a chunk longer than the file") }
            var tick = 0
            var events: [(tick: Int, bytes: [UInt8])] = []
            var ended = false
            while p < end {
                guard !ended else { fail("an event after End of Track") }
                tick += number()
                let status = byte()
                switch status {
                case 0x80...0xEF:
                    let data = bytes(status >= 0xC0 && status < 0xE0 ? 1 : 2)
                    guard data.allSatisfy({ $0 < 0x80 }) else { fail("a status byte inside a channel message") }
                    events.append((tick, [status] + data))
                case 0xF0: events.append((tick, [0xF0] + bytes(number())))
                case 0xF7: events.append((tick, bytes(number())))
                case 0xFF:
                    let type = byte()
                    _ = bytes(number())
                    ended = type == 0x2F
                default: fail("a message without its status byte (running status)")
                }
            }
            guard p == end, ended else { fail("a chunk that does not end with End of Track") }
            tracks.append(events)
        }
        guard p == file.count else { fail("bytes after the last chunk") }
    }
}
