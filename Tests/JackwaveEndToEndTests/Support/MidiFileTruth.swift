import Foundation
import JackwaveTestSupport

/// A Standard MIDI File as `midicsv` (Debian) reads it: a second reader, not jackwave's.
struct MidiFileTruth {
    struct Event: Equatable {
        var track: Int
        var tick: Int
        var bytes: [UInt8]
    }

    let division: Int
    /// Tempo events (µs per quarter), track names and each track's end, by track number.
    var tempos: [Int] = []
    var names: [Int: String] = [:]
    var ends: [Int: Int] = [:]
    /// Every MIDI message, in file order, with its bytes rebuilt from midicsv's fields.
    var events: [Event] = []

    /// Reads `path` through midicsv; throws with what it said if it cannot.
    init(_ path: String) throws {
        let out = try Run.tool("/usr/bin/midicsv", [path], server: nil, timeout: 30)
        guard out.status == 0 else { throw TestFailure("midicsv \(path): \(out.stderr)") }
        var division = 0
        for line in out.stdout.split(separator: "\n") {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard f.count >= 3, let track = Int(f[0]), let tick = Int(f[1]) else { continue }
            let numbers = f.dropFirst(3).compactMap { Int($0) }
            func bytes(_ status: Int, _ values: [Int]) -> [UInt8] { [UInt8(truncatingIfNeeded: status)] + values.map { UInt8(truncatingIfNeeded: $0) } }
            let channel = numbers.first ?? 0
            switch f[2] {
            case "Header": division = numbers.count >= 3 ? numbers[2] : 0
            case "Tempo": tempos.append(numbers.first ?? 0)
            case "Title_t": names[track] = f.dropFirst(3).joined(separator: ",").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            case "End_track": ends[track] = tick
            case "Note_on_c": events.append(Event(track: track, tick: tick, bytes: bytes(0x90 | channel, Array(numbers.dropFirst()))))
            case "Note_off_c": events.append(Event(track: track, tick: tick, bytes: bytes(0x80 | channel, Array(numbers.dropFirst()))))
            case "Control_c": events.append(Event(track: track, tick: tick, bytes: bytes(0xB0 | channel, Array(numbers.dropFirst()))))
            case "Program_c": events.append(Event(track: track, tick: tick, bytes: bytes(0xC0 | channel, Array(numbers.dropFirst()))))
            case "Channel_aftertouch_c": events.append(Event(track: track, tick: tick, bytes: bytes(0xD0 | channel, Array(numbers.dropFirst()))))
            case "Poly_aftertouch_c": events.append(Event(track: track, tick: tick, bytes: bytes(0xA0 | channel, Array(numbers.dropFirst()))))
            case "Pitch_bend_c":
                let value = numbers.count > 1 ? numbers[1] : 0
                events.append(Event(track: track, tick: tick, bytes: bytes(0xE0 | channel, [value & 0x7F, value >> 7])))
            case "System_exclusive": events.append(Event(track: track, tick: tick, bytes: bytes(0xF0, Array(numbers.dropFirst()))))
            case "System_exclusive_packet": events.append(Event(track: track, tick: tick, bytes: Array(numbers.dropFirst()).map { UInt8(truncatingIfNeeded: $0) }))
            default: break
            }
        }
        self.division = division
    }

    /// The events of `track`, in order.
    func track(_ number: Int) -> [Event] { events.filter { $0.track == number } }
}

/// The frames at which a recorded `click` channel holds its clicks (samples of exactly 0.5).
func clicks(in recording: Recording, channel: Int) -> [Int] {
    guard channel < recording.channels else { return [] }
    return (0..<recording.frames).filter { recording[$0, channel] == 0.5 }
}
