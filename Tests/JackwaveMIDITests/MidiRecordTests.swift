import JackwaveDSP
import JackwaveTestSupport
import Testing

/// The MIDI ring's slots: how many an event takes, and what `MidiRecord.fill` puts in them,
/// across the ring's wrap.
@Suite("MidiRecord")
struct MidiRecordTests {
    @Test("slots(forBytes:) is one slot per 20 bytes, rounded up, and at least one",
          arguments: [(0, 1), (1, 1), (3, 1), (20, 1), (21, 2), (40, 2), (41, 3), (256, 13)])
    func slotsForBytes(length: Int, slots: Int) {
        #expect(MidiRecord.slots(forBytes: length) == slots)
    }

    @Test("a 256-byte SysEx fills 13 slots across the ring's wrap: bytes in order, continues on all but the last")
    func sysExAcrossTheWrap() throws {
        let ring = SPSCRing<MidiRecord>(minimumCapacity: 16, width: 1)
        // Move both indices to slot 10 of 16, so that 13 slots wrap after 6.
        for _ in 0..<10 { #expect(put(ring, frame: 0, [0xF8])) }
        #expect(takeAll(ring).count == 10)
        let sysex: [UInt8] = [0xF0] + (0..<254).map { UInt8($0 % 128) } + [0xF7]
        let region = ring.writableRegions(upTo: MidiRecord.slots(forBytes: sysex.count))
        #expect(region.firstCount == 6 && region.secondCount == 7)
        try sysex.withUnsafeBufferPointer { b in
            MidiRecord.fill(region, frame: 987_654, port: 3, data: try #require(b.baseAddress), length: b.count)
        }
        ring.commitWrite(region.count)

        let records = takeAll(ring)
        try #require(records.count == 13)
        #expect(records.map(\.count) == Array(repeating: 20, count: 12) + [16])
        #expect(records.map(\.continues) == Array(repeating: true, count: 12) + [false])
        #expect(records.allSatisfy { $0.frame == 987_654 && $0.port == 3 })
        #expect(records.flatMap(\.byteArray) == sysex)
    }

    @Test("a 3-byte channel message takes one slot, not marked continues")
    func channelMessageTakesOneSlot() throws {
        let ring = SPSCRing<MidiRecord>(minimumCapacity: 4, width: 1)
        #expect(put(ring, frame: 42, port: 1, [0x91, 0x40, 0x7F]))
        let records = takeAll(ring)
        let record = try #require(records.first)
        #expect(records.count == 1)
        #expect(record.byteArray == [0x91, 0x40, 0x7F] && !record.continues && record.frame == 42 && record.port == 1)
    }

    @Test("a record is 32 bytes, its bytes at bytesOffset")
    func layout() {
        #expect(MemoryLayout<MidiRecord>.stride == 32)
        #expect(MemoryLayout<MidiRecord>.offset(of: \.bytes) == MidiRecord.bytesOffset)
    }
}
