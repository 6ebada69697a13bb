import Foundation

/// A Standard MIDI File as `midicsv` (Debian) reads it: a reader that shares nothing with
/// jackwave's writer (`StandardMidiFile`) nor with portSMF (which reads the files for plot).
public struct MidiCSV {
    public struct Event: Equatable, CustomStringConvertible {
        public var tick: Int
        public var bytes: [UInt8]
        public init(tick: Int, bytes: [UInt8]) {
            self.tick = tick
            self.bytes = bytes
        }
        public var description: String { "\(tick): " + bytes.map { String(format: "%02X", $0) }.joined(separator: " ") }
    }

    public var division = 0
    public var tempos: [Int] = []
    public var names: [Int: String] = [:]
    /// Each track's End_track tick, by midicsv's track number (from 1: 1 is the conductor).
    public var ends: [Int: Int] = [:]
    /// Every MIDI message by track, in file order, bytes rebuilt from midicsv's fields.
    public var tracks: [Int: [Event]] = [:]

    /// Reads `path` through midicsv; throws with what it said if it cannot.
    public init(_ path: String) throws {
        let out = try Run.tool("/usr/bin/midicsv", [path], server: nil, timeout: 30)
        guard out.status == 0 else { throw TestFailure("midicsv \(path): \(out.stderr)") }
        for line in out.stdout.split(separator: "\n") {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard f.count >= 3, let track = Int(f[0]), let tick = Int(f[1]) else { continue }
            let n = f.dropFirst(3).compactMap { Int($0) }
            let channel = n.first ?? 0
            let data = n.dropFirst().map { UInt8(truncatingIfNeeded: $0) }
            func add(_ status: Int, _ bytes: [UInt8]) {
                tracks[track, default: []].append(Event(tick: tick, bytes: [UInt8(truncatingIfNeeded: status | channel)] + bytes))
            }
            switch f[2] {
            case "Header": division = n.element(at: 2) ?? 0
            case "Tempo": tempos.append(n.first ?? 0)
            case "Title_t": names[track] = f.dropFirst(3).joined(separator: ",").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            case "End_track": ends[track] = tick
            case "Note_on_c": add(0x90, data)
            case "Note_off_c": add(0x80, data)
            case "Control_c": add(0xB0, data)
            case "Program_c": add(0xC0, data)
            case "Channel_aftertouch_c": add(0xD0, data)
            case "Poly_aftertouch_c": add(0xA0, data)
            case "System_exclusive":
                tracks[track, default: []].append(Event(tick: tick, bytes: [0xF0] + data))
            case "System_exclusive_packet":
                tracks[track, default: []].append(Event(tick: tick, bytes: data))
            case "Pitch_bend_c":
                let value = n.element(at: 1) ?? 0
                add(0xE0, [UInt8(value & 0x7F), UInt8(value >> 7 & 0x7F)])
            default: break
            }
        }
    }

    /// The channel messages of `track` (midicsv counts from 1, the conductor: 2 is the first input's).
    public func track(_ number: Int) -> [Event] { tracks[number] ?? [] }
}
