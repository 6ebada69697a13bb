/// One slot of the MIDI ring: up to `capacity` bytes of one JACK MIDI event, with the frame
/// it came at and the port it came on. An event longer than a slot (SysEx) fills as many
/// consecutive slots as it needs, each but the last marked `continues`; the callback
/// publishes them in one commit, so a reader sees a whole event or none of it.
///
/// 32 bytes (a test holds the layout to it): two slots to a cache line, and a 3-byte
/// channel message costs one slot.
@frozen
public struct MidiRecord: BitwiseCopyable, Sendable {
    /// The event's frame in this connection's stream (the cycle's first frame plus the
    /// event's offset in it).
    public var frame: Int64
    /// The bytes, in order, right after `frame` (`bytesOffset`); only the first `count` mean
    /// anything.
    public var bytes: (UInt32, UInt32, UInt32, UInt32, UInt32)
    /// Which MIDI input, from 0 (`midi_1`); the control input (`--mmc`) comes after them.
    public var port: UInt16
    /// Bytes used in `bytes`, 1…`capacity`.
    public var count: UInt8
    /// More of the same event follows in the next slot.
    public var continues: Bool

    /// Bytes one slot carries.
    public static let capacity = 20
    /// Where `bytes` lies in a record: the callback copies an event's bytes straight into
    /// the ring's slot there, without a closure (generic code in an unoptimized build).
    public static let bytesOffset = 8

    // realtime
    @inlinable
    public init(frame: Int64, port: UInt16) {
        self.frame = frame
        bytes = (0, 0, 0, 0, 0)
        self.port = port
        count = 0
        continues = false
    }

    /// Slots an event of `length` bytes takes.
    // realtime
    @inlinable
    public static func slots(forBytes length: Int) -> Int { max(1, (length + capacity - 1) / capacity) }

    /// Writes the event of `length` bytes at `data` into `region` (as many slots as
    /// `slots(forBytes:)` counted), in order. Realtime-safe: copies bytes, nothing else.
    // realtime
    @inlinable
    public static func fill(_ region: RingRegions<MidiRecord>, frame: Int64, port: UInt16,
                            data: UnsafePointer<UInt8>, length: Int) {
        var offset = 0
        var slot = 0
        while offset < length || slot == 0 {
            let target = slot < region.firstCount ? region.first + slot : region.second + (slot - region.firstCount)
            let n = min(capacity, length - offset)
            var record = MidiRecord(frame: frame, port: port)
            record.count = UInt8(n)
            record.continues = offset + n < length
            target.pointee = record
            (UnsafeMutableRawPointer(target) + bytesOffset).copyMemory(from: data + offset, byteCount: n)
            offset += n
            slot += 1
        }
    }

    /// The first `count` bytes, for the reader.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeBytes(of: bytes) { body(UnsafeRawBufferPointer(rebasing: $0.prefix(Int(count)))) }
    }
}

/// What a MIDI Machine Control message asks of a recorder (the MMC part of the MIDI 1.0
/// specification): `F0 7F <device> 06 <command> F7`. jackwave acts on three commands and
/// tells the others apart only to say that it ignored them.
@frozen
public enum MachineControl: UInt8, BitwiseCopyable, Sendable {
    case stop = 0x01
    case recordStrobe = 0x06
    case recordExit = 0x07
    /// Any other command (PLAY, LOCATE, …): heard, not acted on.
    case other = 0x7F

    /// The command an event carries, or nil if it is no MMC command. Realtime-safe.
    // realtime
    @inlinable
    public static func command(in data: UnsafePointer<UInt8>, length: Int) -> MachineControl? {
        guard length >= 6, data[0] == 0xF0, data[1] == 0x7F, data[3] == 0x06, data[length - 1] == 0xF7 else { return nil }
        switch data[4] {
        case 0x01: return .stop
        case 0x06: return .recordStrobe
        case 0x07: return .recordExit
        default: return .other
        }
    }
}
