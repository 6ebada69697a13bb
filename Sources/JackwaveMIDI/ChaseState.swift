/// What one MIDI input has set sounding and held, so that a piece cut from a performance
/// plays on its own: the notes still sounding, the controllers (the sustain pedal among
/// them), the program, pitch bend and channel pressure of each channel.
///
/// At a cut the old piece ends its sounding notes and lets its pedals go at its last tick
/// (`closing`); the new piece starts at tick 0 with the same state (`opening`): the
/// controllers and program first, then the notes, with their own velocities. A sequencer
/// "chases" this way when it starts playing in the middle of a song.
struct ChaseState: Equatable {
    /// Velocity of each sounding note, channel × 128 + key; 0 for none.
    private var notes = [UInt8](repeating: 0, count: 16 * 128)
    /// Each controller's last value, channel × 128 + number; -1 for never set.
    private var controllers = [Int16](repeating: -1, count: 16 * 128)
    private var programs = [Int16](repeating: -1, count: 16)
    /// Pitch bend, 14 bits; -1 for never set.
    private var bends = [Int32](repeating: -1, count: 16)
    private var pressures = [Int16](repeating: -1, count: 16)
    /// Whether a channel's last parameter select was registered (CC 101/100) rather than
    /// non-registered (CC 99/98): the one data entry applies to, selected last when chased.
    private var registeredLast = [Bool](repeating: true, count: 16)

    /// Controllers sent in an order of their own: bank select first, the parameter selects
    /// and data entry after the others.
    static let ordered: Set<Int> = [0, 32, 6, 38, 98, 99, 100, 101]

    /// The pedals a closing piece lets go: sustain, sostenuto, soft.
    static let pedals: [UInt8] = [64, 66, 67]

    mutating func apply(_ message: MidiMessage) {
        guard let (kind, channel) = message.channelStatus else { return }
        let b = message.bytes
        switch kind {
        case 0x90 where b.count == 3:
            notes[channel * 128 + Int(b[1])] = b[2]
        case 0x80 where b.count == 3:
            notes[channel * 128 + Int(b[1])] = 0
        case 0xB0 where b.count == 3:
            let number = Int(b[1])
            switch number {
            case 121:
                // Reset All Controllers, as RP-015 has it: modulation, expression, the pedals,
                // the parameter selects, bend and pressure go back to their defaults (nothing
                // to chase); bank, volume, pan, effects and the program stay.
                for n in [1, 11, 64, 65, 66, 67, 98, 99, 100, 101] { controllers[channel * 128 + n] = -1 }
                bends[channel] = -1
                pressures[channel] = -1
            case 120, 123...127:
                // All Sound Off, All Notes Off and the mode changes end every note.
                for k in 0..<128 { notes[channel * 128 + k] = 0 }
            case 0..<120:
                controllers[channel * 128 + number] = Int16(b[2])
                if number == 98 || number == 99 { registeredLast[channel] = false }
                if number == 100 || number == 101 { registeredLast[channel] = true }
            default:
                break
            }
        case 0xC0 where b.count == 2:
            programs[channel] = Int16(b[1])
        case 0xD0 where b.count == 2:
            pressures[channel] = Int16(b[1])
        case 0xE0 where b.count == 3:
            bends[channel] = Int32(b[1]) | Int32(b[2]) << 7
        default:
            break
        }
    }

    /// What ends the sounding notes and lets the pedals go, for a piece's last tick.
    var closing: [[UInt8]] {
        var out: [[UInt8]] = []
        for channel in 0..<16 {
            let status = UInt8(channel)
            for key in 0..<128 where notes[channel * 128 + key] > 0 {
                out.append([0x80 | status, UInt8(key), 0x40])
            }
            for pedal in Self.pedals where controllers[channel * 128 + Int(pedal)] >= 64 {
                out.append([0xB0 | status, pedal, 0])
            }
        }
        return out
    }

    /// What sets the same state again, for a piece's tick 0: bank select, program, the other
    /// controllers, then the parameter selects (the one selected last, last) and their data
    /// entry, pitch bend, channel pressure, then the notes.
    var opening: [[UInt8]] {
        var out: [[UInt8]] = []
        for channel in 0..<16 {
            let status = UInt8(channel)
            let value = { (n: Int) in self.controllers[channel * 128 + n] }
            for bank in [0, 32] where value(bank) >= 0 { out.append([0xB0 | status, UInt8(bank), UInt8(value(bank))]) }
            if programs[channel] >= 0 { out.append([0xC0 | status, UInt8(programs[channel])]) }
            for n in 0..<120 where !Self.ordered.contains(n) && value(n) >= 0 {
                out.append([0xB0 | status, UInt8(n), UInt8(value(n))])
            }
            let selects = registeredLast[channel] ? [99, 98, 101, 100] : [101, 100, 99, 98]
            for n in selects + [6, 38] where value(n) >= 0 {
                out.append([0xB0 | status, UInt8(n), UInt8(value(n))])
            }
            if bends[channel] >= 0 { out.append([0xE0 | status, UInt8(bends[channel] & 0x7F), UInt8(bends[channel] >> 7)]) }
            if pressures[channel] >= 0 { out.append([0xD0 | status, UInt8(pressures[channel])]) }
        }
        for channel in 0..<16 {
            for key in 0..<128 where notes[channel * 128 + key] > 0 {
                out.append([0x90 | UInt8(channel), UInt8(key), notes[channel * 128 + key]])
            }
        }
        return out
    }
}
