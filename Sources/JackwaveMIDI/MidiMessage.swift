/// One complete MIDI message as it goes into a file: a channel message (running status
/// expanded), a system common or real-time message, or a whole SysEx (`F0 … F7`).
public struct MidiMessage: Equatable, Sendable {
    /// Its frame on the run's timeline.
    public var frame: Int64
    /// The MIDI input it came on, from 0.
    public var port: Int
    public var bytes: [UInt8]

    public init(frame: Int64, port: Int, bytes: [UInt8]) {
        self.frame = frame
        self.port = port
        self.bytes = bytes
    }

    /// The message's length for a status byte, counting the status; nil where the length is
    /// not fixed (SysEx) or the status is undefined (F4, F5, F9, FD) or a stray F7.
    static func length(ofStatus status: UInt8) -> Int? {
        switch status {
        case 0x80...0xBF, 0xE0...0xEF, 0xF2: 3
        case 0xC0...0xDF, 0xF1, 0xF3: 2
        case 0xF6, 0xF8, 0xFA, 0xFB, 0xFC, 0xFE, 0xFF: 1
        default: nil
        }
    }

    /// A channel message's channel and kind (the status's high nibble), nil for system ones.
    var channelStatus: (kind: UInt8, channel: Int)? {
        guard let status = bytes.first, status >= 0x80, status < 0xF0 else { return nil }
        return (status & 0xF0, Int(status & 0x0F))
    }
}

/// Turns the MIDI ring's records back into messages, one input at a time: joins the slots of
/// a long event, splits an event that holds several messages, expands running status (a
/// message without its status byte takes the last channel status of its input), and sets
/// aside what cannot be a message.
///
/// What a Standard MIDI File cannot hold is set aside too, and counted: System Reset (`FF`)
/// would read back as a meta event.
///
/// A SysEx may come in pieces: `F0 …` in one event, the rest in the next ones, the last
/// ending in `F7` (JACK carries at most about 32 KiB in one event, and a bridge from ALSA
/// passes a long dump on as it comes). The pieces are joined and the whole kept at the frame
/// of its last piece, when it was complete. Any other status before its `F7` cuts it, as on
/// a MIDI cable, and so does the end of its source (`endInput`): counted malformed.
package struct MidiAssembler {
    /// The longest event kept, and the longest SysEx, whole or joined from pieces (a SysEx
    /// dump); longer ones are set aside whole.
    static let maximumEventBytes = 65536

    /// Per input: the last channel status (for running status), and the event being joined.
    private var running: [UInt8?]
    private var joining: [[UInt8]]
    private var joiningTooLong: [Bool]
    /// Per input: a SysEx whose `F7` has not come yet (from `F0`), nil for none; and whether
    /// it has grown past `maximumEventBytes` (then only its end is waited for).
    private var sysEx: [[UInt8]?]
    private var sysExTooLong: [Bool]

    /// Per input: bytes or events set aside as malformed, and messages no file can hold.
    private(set) var malformed: [Int]
    private(set) var unrecordable: [Int]

    package init(ports: Int) {
        running = Array(repeating: nil, count: ports)
        joining = Array(repeating: [], count: ports)
        joiningTooLong = Array(repeating: false, count: ports)
        sysEx = Array(repeating: nil, count: ports)
        sysExTooLong = Array(repeating: false, count: ports)
        malformed = Array(repeating: 0, count: ports)
        unrecordable = Array(repeating: 0, count: ports)
    }

    /// Takes one record; hands each message it completes to `emit` (at `frame`, on the
    /// record's input).
    package mutating func take(port: Int, bytes: UnsafeRawBufferPointer, continues: Bool, frame: Int64,
                       emit: (MidiMessage) -> Void) {
        guard port < joining.count else { return }
        if !joiningTooLong[port] {
            if joining[port].count + bytes.count <= Self.maximumEventBytes {
                joining[port].append(contentsOf: bytes)
            } else {
                joiningTooLong[port] = true
            }
        }
        guard !continues else { return }
        defer {
            joining[port].removeAll(keepingCapacity: true)
            joiningTooLong[port] = false
        }
        if joiningTooLong[port] {
            malformed[port] += 1
            return
        }
        split(joining[port], port: port, frame: frame, emit: emit)
    }

    /// The inputs' sources are gone (a connection or the run ends): a SysEx still waiting
    /// for its end never gets it, and is counted malformed.
    package mutating func endInput() {
        for port in sysEx.indices where sysEx[port] != nil {
            malformed[port] += 1
            sysEx[port] = nil
            sysExTooLong[port] = false
        }
    }

    /// Adds `bytes` to input `port`'s SysEx in pieces, within `maximumEventBytes`.
    private mutating func extendSysEx(port: Int, _ bytes: ArraySlice<UInt8>) {
        guard !sysExTooLong[port], let count = sysEx[port]?.count else { return }
        if count + bytes.count < Self.maximumEventBytes {
            sysEx[port]!.append(contentsOf: bytes)
        } else {
            sysExTooLong[port] = true
            sysEx[port] = []
        }
    }

    /// Splits one event's bytes into messages. Real-time messages may sit anywhere, even
    /// inside another message or a SysEx (the MIDI 1.0 specification allows it): each comes
    /// out on its own, before the message it interrupted, which goes on without it. A status
    /// byte inside an unfinished message ends that message (counted malformed).
    private mutating func split(_ raw: [UInt8], port: Int, frame: Int64, emit: (MidiMessage) -> Void) {
        // The bytes without the real-time ones, and each real-time byte with the index (in
        // those bytes) of the byte it came before.
        var event: [UInt8] = []
        var realTime: [(before: Int, byte: UInt8)] = []
        event.reserveCapacity(raw.count)
        for byte in raw {
            if byte >= 0xF8 { realTime.append((event.count, byte)) } else { event.append(byte) }
        }
        var next = 0
        func flush(before limit: Int) {
            while next < realTime.count && realTime[next].before < limit {
                let byte = realTime[next].byte
                if byte == 0xFF {
                    unrecordable[port] += 1
                } else if MidiMessage.length(ofStatus: byte) == nil {
                    malformed[port] += 1
                } else {
                    emit(MidiMessage(frame: frame, port: port, bytes: [byte]))
                }
                next += 1
            }
        }
        var i = 0
        if sysEx[port] != nil {
            // The next piece of a SysEx: its data bytes, up to its end or a status that cuts it.
            let end = event.firstIndex(where: { $0 >= 0x80 }) ?? event.count
            extendSysEx(port: port, event[0..<end])
            guard end < event.count else {
                flush(before: .max)
                return
            }
            if event[end] == 0xF7 {
                flush(before: end + 1)
                if sysExTooLong[port] { malformed[port] += 1 } else { emit(MidiMessage(frame: frame, port: port, bytes: sysEx[port]! + [0xF7])) }
                i = end + 1
            } else {
                malformed[port] += 1
                i = end
            }
            sysEx[port] = nil
            sysExTooLong[port] = false
        }
        while i < event.count {
            let byte = event[i]
            if byte == 0xF0 {
                // A SysEx cancels running status, whether it completes or not.
                running[port] = nil
                guard let end = event[(i + 1)...].firstIndex(where: { $0 >= 0x80 }) else {
                    // Its end comes in a later event.
                    sysEx[port] = []
                    extendSysEx(port: port, event[i...])
                    break
                }
                guard event[end] == 0xF7 else {
                    // Cut by another status: the SysEx is lost up to there.
                    malformed[port] += 1
                    i = end
                    continue
                }
                flush(before: end + 1)
                emit(MidiMessage(frame: frame, port: port, bytes: Array(event[i...end])))
                i = end + 1
                continue
            }
            let status: UInt8
            let dataStart: Int
            if byte >= 0x80 {
                status = byte
                dataStart = i + 1
                // System common messages cancel running status.
                running[port] = byte < 0xF0 ? byte : nil
            } else if let last = running[port] {
                status = last
                dataStart = i
            } else {
                malformed[port] += 1
                i += 1
                continue
            }
            guard let length = MidiMessage.length(ofStatus: status) else {
                malformed[port] += 1
                i += 1
                continue
            }
            let dataEnd = dataStart + length - 1
            if let cut = event[dataStart..<min(dataEnd, event.count)].firstIndex(where: { $0 >= 0x80 }) {
                malformed[port] += 1
                i = cut
                continue
            }
            guard dataEnd <= event.count else {
                malformed[port] += 1
                break
            }
            flush(before: dataEnd)
            emit(MidiMessage(frame: frame, port: port, bytes: [status] + event[dataStart..<dataEnd]))
            i = dataEnd
        }
        flush(before: .max)
    }
}
