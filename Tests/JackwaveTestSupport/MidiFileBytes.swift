/// The bytes of a Standard MIDI File, written out for the tests' fixtures (no MIDI library
/// writes them, so that what the reader is checked against is only the file format itself):
/// a header, then tracks of events at absolute ticks, each track closed by an end-of-track
/// event.
public struct MidiFileBytes {
    /// One MTrk chunk: events at ticks, in the order added (a stable sort by tick).
    public struct Track {
        public var events: [(tick: Int, bytes: [UInt8])] = []
        /// The tick of the end-of-track event (default: the last event's).
        public var end: Int?

        public init(name: String? = nil) {
            if let name { meta(0x03, Array(name.utf8)) }
        }

        /// A meta event of `type`.
        public mutating func meta(_ type: UInt8, _ data: [UInt8], at tick: Int = 0) {
            events.append((tick, [0xff, type] + MidiFileBytes.number(data.count) + data))
        }

        /// A tempo change, in microseconds per quarter note.
        public mutating func tempo(_ microseconds: Int, at tick: Int = 0) {
            meta(0x51, [UInt8(microseconds >> 16 & 0xff), UInt8(microseconds >> 8 & 0xff), UInt8(microseconds & 0xff)], at: tick)
        }

        /// A note-on at `tick` and, unless `length` is nil, its note-off (a note-on of
        /// velocity 0 when `offAsZeroVelocity`) `length` ticks later.
        public mutating func note(_ pitch: UInt8, at tick: Int, length: Int?, velocity: UInt8 = 100, channel: UInt8 = 0,
                                  offAsZeroVelocity: Bool = false) {
            events.append((tick, [0x90 | channel, pitch, velocity]))
            if let length {
                events.append((tick + length, offAsZeroVelocity ? [0x90 | channel, pitch, 0] : [0x80 | channel, pitch, 64]))
            }
        }

        /// Any bytes as an event (a system-exclusive or escaped message, a running-status one).
        public mutating func raw(_ bytes: [UInt8], at tick: Int) { events.append((tick, bytes)) }

        /// The chunk's body: delta times and events, then the end of the track.
        public var body: [UInt8] {
            var sorted = events.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }.map(\.element)
            sorted.append((Swift.max(end ?? 0, sorted.last?.tick ?? 0), [0xff, 0x2f, 0x00]))
            var out: [UInt8] = [], now = 0
            for event in sorted {
                out += MidiFileBytes.number(event.tick - now) + event.bytes
                now = event.tick
            }
            return out
        }
    }

    public var format: UInt16 = 1
    /// Ticks per quarter note, or an SMPTE division (high byte the negative frame rate).
    public var division: UInt16
    public var tracks: [Track]

    public init(division: UInt16, tracks: [Track], format: UInt16 = 1) {
        self.division = division
        self.tracks = tracks
        self.format = format
    }

    /// The whole file.
    public var bytes: [UInt8] {
        var out = Array("MThd".utf8) + Self.be32(6) + Self.be16(Int(format)) + Self.be16(tracks.count) + Self.be16(Int(division))
        for track in tracks {
            let body = track.body
            out += Array("MTrk".utf8) + Self.be32(body.count) + body
        }
        return out
    }

    /// A variable-length quantity: seven bits a byte, most significant first.
    public static func number(_ value: Int) -> [UInt8] {
        var bytes = [UInt8(value & 0x7f)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7f) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }

    static func be32(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((v >> (8 * $0)) & 0xff) } }
    static func be16(_ v: Int) -> [UInt8] { (0..<2).reversed().map { UInt8((v >> (8 * $0)) & 0xff) } }
}
