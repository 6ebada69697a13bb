import Foundation
import JackwaveDSP
@testable import JackwaveMIDI
import JackwaveTestSupport

/// What the assembler made of a run of events on one input: the messages' bytes in order,
/// and what it set aside.
struct Assembled {
    var messages: [MidiMessage] = []
    var malformed = 0
    var unrecordable = 0
    var bytes: [[UInt8]] { messages.map(\.bytes) }
}

/// Hands `events` (each one record, `continues` where more of it follows) to a fresh
/// assembler on input 0, at frame 7 each.
func assemble(_ events: [(bytes: [UInt8], continues: Bool)]) -> Assembled {
    var assembler = MidiAssembler(ports: 1)
    var out = Assembled()
    for event in events {
        event.bytes.withUnsafeBytes { raw in
            assembler.take(port: 0, bytes: raw, continues: event.continues, frame: 7) { out.messages.append($0) }
        }
    }
    out.malformed = assembler.malformed.first ?? -1
    out.unrecordable = assembler.unrecordable.first ?? -1
    return out
}

/// Each event a whole record of its own.
func assemble(_ events: [UInt8]...) -> Assembled { assemble(events.map { ($0, false) }) }

/// Writes one event into `ring` as the callback does (`MidiRecord.fill`, one commit); false
/// if it did not fit.
@discardableResult
func put(_ ring: SPSCRing<MidiRecord>, frame: Int64, port: UInt16 = 0, _ bytes: [UInt8]) -> Bool {
    let slots = MidiRecord.slots(forBytes: bytes.count)
    let region = ring.writableRegions(upTo: slots)
    guard region.count == slots else { return false }
    let filled = bytes.withUnsafeBufferPointer { b -> Bool in
        guard let base = b.baseAddress else { return false }
        MidiRecord.fill(region, frame: frame, port: port, data: base, length: b.count)
        return true
    }
    guard filled else { return false }
    ring.commitWrite(slots)
    return true
}

/// Every record waiting in `ring`, taken out.
func takeAll(_ ring: SPSCRing<MidiRecord>) -> [MidiRecord] {
    let region = ring.readableRegions()
    let records = Array(UnsafeBufferPointer(start: region.first, count: region.firstCount))
        + Array(UnsafeBufferPointer(start: region.second, count: region.secondCount))
    ring.commitRead(region.count)
    return records
}

extension MidiRecord {
    var byteArray: [UInt8] { withBytes { Array($0) } }
}

/// `MidiCSV.Event` from a tick and bytes, short.
func at(_ tick: Int, _ bytes: UInt8...) -> MidiCSV.Event { MidiCSV.Event(tick: tick, bytes: bytes) }
