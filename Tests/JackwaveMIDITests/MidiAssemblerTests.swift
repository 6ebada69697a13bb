import JackwaveDSP
@testable import JackwaveMIDI
import JackwaveTestSupport
import Testing

/// The MIDI ring's records turned back into messages: running status, events in several
/// slots, real-time bytes, and what is set aside and counted.
@Suite("MidiAssembler")
struct MidiAssemblerTests {
    @Test("running status is expanded: 90 3C 64 3E 64 gives two whole note-ons")
    func runningStatusIsExpanded() {
        let out = assemble([0x90, 0x3C, 0x64, 0x3E, 0x64])
        #expect(out.bytes == [[0x90, 0x3C, 0x64], [0x90, 0x3E, 0x64]])
        #expect(out.malformed == 0)
    }

    @Test("running status carries over from one event to the next on the same input")
    func runningStatusCarriesAcrossEvents() {
        let out = assemble([0xB3, 0x07, 0x64], [0x0A, 0x20])
        #expect(out.bytes == [[0xB3, 0x07, 0x64], [0xB3, 0x0A, 0x20]])
    }

    @Test("running status is kept per input: another input's status does not complete a bare data pair")
    func runningStatusIsPerInput() {
        var assembler = MidiAssembler(ports: 2)
        var got: [MidiMessage] = []
        for (port, bytes) in [(0, [0x90, 0x3C, 0x64] as [UInt8]), (1, [0x3E, 0x64]), (0, [0x3E, 0x64])] {
            bytes.withUnsafeBytes { assembler.take(port: port, bytes: $0, continues: false, frame: 5) { got.append($0) } }
        }
        #expect(got.map(\.bytes) == [[0x90, 0x3C, 0x64], [0x90, 0x3E, 0x64]])
        #expect(got.map(\.port) == [0, 0])
        #expect(assembler.malformed == [0, 2])
    }

    @Test("a 300-byte SysEx filled over 15 ring slots comes out whole, once, at its frame")
    func sysExOverSeveralRecordsComesOutWhole() throws {
        let sysex: [UInt8] = [0xF0] + (0..<298).map { UInt8($0 % 128) } + [0xF7]
        let ring = SPSCRing<MidiRecord>(minimumCapacity: 64, width: 1)
        #expect(put(ring, frame: 1234, port: 0, sysex))
        let records = takeAll(ring)
        #expect(records.count == 15)
        var assembler = MidiAssembler(ports: 1)
        var got: [MidiMessage] = []
        for record in records {
            record.withBytes { bytes in
                assembler.take(port: Int(record.port), bytes: bytes, continues: record.continues, frame: record.frame) { got.append($0) }
            }
        }
        #expect(got == [MidiMessage(frame: 1234, port: 0, bytes: sysex)])
        #expect(assembler.malformed == [0])
    }

    @Test("the records of a long event emit nothing until the last arrives")
    func nothingBeforeTheLastRecord() {
        var assembler = MidiAssembler(ports: 1)
        var emitted: [Int] = []
        let pieces: [([UInt8], Bool)] = [([0xF0, 0x43, 0x10], true), ([0x4C, 0x00], true), ([0x00, 0x7E, 0xF7], false)]
        for (i, (bytes, continues)) in pieces.enumerated() {
            bytes.withUnsafeBytes { assembler.take(port: 0, bytes: $0, continues: continues, frame: 0) { _ in emitted.append(i) } }
        }
        #expect(emitted == [2])
    }

    @Test("a real-time byte between two messages of an event comes out on its own, in order, and keeps running status")
    func realTimeBetweenMessages() {
        let out = assemble([0x90, 0x3C, 0x64, 0xF8, 0x3E, 0x64, 0xFA])
        #expect(out.bytes == [[0x90, 0x3C, 0x64], [0xF8], [0x90, 0x3E, 0x64], [0xFA]])
        #expect(out.malformed == 0)
    }

    @Test("a real-time byte inside a channel message comes out on its own, and the message whole")
    func realTimeInsideAChannelMessage() {
        let out = assemble([0x90, 0x3C, 0xF8, 0x64])
        #expect(out.bytes == [[0xF8], [0x90, 0x3C, 0x64]])
        #expect(out.malformed == 0)
    }

    @Test("a real-time byte inside a SysEx comes out on its own, and the SysEx whole")
    func realTimeInsideASysEx() {
        let out = assemble([0xF0, 0x7E, 0x00, 0xF8, 0x06, 0x01, 0xF7])
        #expect(out.bytes == [[0xF8], [0xF0, 0x7E, 0x00, 0x06, 0x01, 0xF7]])
        #expect(out.malformed == 0)
    }

    @Test("System Reset (FF) is counted unrecordable, not emitted, and the messages around it still are")
    func systemResetIsUnrecordable() {
        let out = assemble([0xFF], [0x90, 0x3C, 0x64, 0xFF, 0xFE])
        #expect(out.bytes == [[0x90, 0x3C, 0x64], [0xFE]])
        #expect(out.unrecordable == 2)
        #expect(out.malformed == 0)
    }

    @Test("an undefined real-time byte (F9, FD) is counted malformed, not emitted")
    func undefinedRealTimeIsMalformed() {
        let out = assemble([0xF9], [0xFD])
        #expect(out.messages.isEmpty)
        #expect(out.malformed == 2)
        #expect(out.unrecordable == 0)
    }

    @Test("a stray data byte with no running status is counted malformed, and the message after it kept")
    func strayDataByteIsMalformed() {
        let out = assemble([0x3C, 0x90, 0x3C, 0x64])
        #expect(out.bytes == [[0x90, 0x3C, 0x64]])
        #expect(out.malformed == 1)
    }

    @Test("a SysEx whose source ends before its F7 is counted malformed and nothing of it emitted")
    func unterminatedSysExIsMalformed() {
        let out = assemble([0xF0, 0x7E, 0x00, 0x06, 0x01])
        #expect(out.messages.isEmpty)
        // It may yet go on in the next event; only the end of its source ends it.
        #expect(out.malformed == 0)
        var assembler = MidiAssembler(ports: 1)
        [UInt8]([0xF0, 0x7E, 0x00, 0x06, 0x01]).withUnsafeBytes { assembler.take(port: 0, bytes: $0, continues: false, frame: 7) { _ in } }
        assembler.endInput()
        #expect(assembler.malformed == [1])
    }

    /// Each event on input 0 at its own frame (`frame`), then, if `ended`, the source's end.
    func assembleTimed(_ events: [(frame: Int64, bytes: [UInt8])], ended: Bool = false) -> Assembled {
        var assembler = MidiAssembler(ports: 1)
        var out = Assembled()
        for event in events {
            event.bytes.withUnsafeBytes { assembler.take(port: 0, bytes: $0, continues: false, frame: event.frame) { out.messages.append($0) } }
        }
        if ended { assembler.endInput() }
        out.malformed = assembler.malformed[0]
        out.unrecordable = assembler.unrecordable[0]
        return out
    }

    @Test("a SysEx in pieces (F0 … in one event, the rest in the next ones) is joined, at the frame of its last piece")
    func sysExInPiecesIsJoined() {
        let out = assembleTimed([(100, [0xF0, 0x7D, 0x01, 0x02]), (356, [0x03, 0x04]), (612, [0x05, 0xF7, 0x90, 0x3C, 0x64])])
        #expect(out.messages == [MidiMessage(frame: 612, port: 0, bytes: [0xF0, 0x7D, 0x01, 0x02, 0x03, 0x04, 0x05, 0xF7]),
                                 MidiMessage(frame: 612, port: 0, bytes: [0x90, 0x3C, 0x64])])
        #expect(out.malformed == 0)
    }

    @Test("a real-time byte between a SysEx's pieces comes out on its own, at its own frame")
    func realTimeBetweenPieces() {
        let out = assembleTimed([(10, [0xF0, 0x7D, 0x01]), (20, [0xF8]), (30, [0x02, 0xFE, 0xF7])])
        #expect(out.messages == [MidiMessage(frame: 20, port: 0, bytes: [0xF8]), MidiMessage(frame: 30, port: 0, bytes: [0xFE]),
                                 MidiMessage(frame: 30, port: 0, bytes: [0xF0, 0x7D, 0x01, 0x02, 0xF7])])
    }

    @Test("a SysEx of 64 KiB in three pieces is kept whole; one byte more is counted malformed once, and the note after its end kept")
    func longestSysExInPieces() {
        let whole: [UInt8] = [0xF0, 0x7D] + (0..<MidiAssembler.maximumEventBytes - 3).map { UInt8($0 % 128) } + [0xF7]
        let pieces = [Array(whole[0..<30000]), Array(whole[30000..<60000]), Array(whole[60000...])]
        let kept = assembleTimed(pieces.enumerated().map { (Int64($0.offset) * 256, $0.element) })
        #expect(kept.bytes == [whole] && kept.malformed == 0)
        let longer = [pieces[0], pieces[1], [0x11] + pieces[2] + [0x90, 0x3C, 0x64]]
        let refused = assembleTimed(longer.enumerated().map { (Int64($0.offset) * 256, $0.element) })
        #expect(refused.bytes == [[0x90, 0x3C, 0x64]] && refused.malformed == 1)
    }

    @Test("a status before a SysEx's F7 cuts it: counted malformed once, and the message that cut it kept")
    func statusCutsSysExInPieces() {
        let out = assembleTimed([(10, [0xF0, 0x7D, 0x01]), (20, [0x02, 0x03]), (30, [0xB0, 0x07, 0x64])], ended: true)
        #expect(out.bytes == [[0xB0, 0x07, 0x64]])
        #expect(out.malformed == 1)
    }

    @Test("a SysEx cut off by its source's end cancels running status: its continuation is never read as notes")
    func sysExInPiecesCancelsRunningStatus() {
        let out = assembleTimed([(10, [0x90, 0x3C, 0x64]), (20, [0xF0, 0x7D, 0x01]), (30, [0x3C, 0x00, 0x3E, 0x64])], ended: true)
        #expect(out.bytes == [[0x90, 0x3C, 0x64]])
        #expect(out.malformed == 1)
    }

    @Test("a channel message cut short is counted malformed")
    func truncatedMessageIsMalformed() {
        let out = assemble([0x90, 0x3C])
        #expect(out.messages.isEmpty)
        #expect(out.malformed == 1)
    }

    @Test("system common (F2 song position) comes out whole and cancels running status")
    func systemCommonCancelsRunningStatus() {
        let out = assemble([0x90, 0x3C, 0x64], [0xF2, 0x10, 0x02], [0x3E, 0x64])
        #expect(out.bytes == [[0x90, 0x3C, 0x64], [0xF2, 0x10, 0x02]])
        // The two bare data bytes, each set aside.
        #expect(out.malformed == 2)
    }

    @Test("a SysEx cancels running status")
    func sysExCancelsRunningStatus() {
        let out = assemble([0x90, 0x3C, 0x64, 0xF0, 0x01, 0xF7, 0x3E, 0x64])
        #expect(out.bytes == [[0x90, 0x3C, 0x64], [0xF0, 0x01, 0xF7]])
        #expect(out.malformed == 2)
    }

    @Test("an event of exactly maximumEventBytes is kept whole")
    func longestEventIsKept() {
        let body = [UInt8](repeating: 0x11, count: MidiAssembler.maximumEventBytes - 2)
        let out = assemble(slices([0xF0] + body + [0xF7], of: 4096))
        #expect(out.messages.count == 1)
        #expect(out.messages.first?.bytes.count == MidiAssembler.maximumEventBytes)
        #expect(out.malformed == 0)
    }

    @Test("an event longer than maximumEventBytes is counted malformed once, nothing emitted, and the next event is whole")
    func overlongEventIsMalformed() {
        let body = [UInt8](repeating: 0x11, count: MidiAssembler.maximumEventBytes - 1)
        let out = assemble(slices([0xF0] + body + [0xF7], of: 4096) + [([0x90, 0x3C, 0x64], false)])
        #expect(out.bytes == [[0x90, 0x3C, 0x64]])
        #expect(out.malformed == 1)
    }

    /// `bytes` as one event in records of `size`, each but the last marked `continues`.
    func slices(_ bytes: [UInt8], of size: Int) -> [(bytes: [UInt8], continues: Bool)] {
        stride(from: 0, to: bytes.count, by: size).map { start in
            let end = min(bytes.count, start + size)
            return (Array(bytes[start..<end]), end < bytes.count)
        }
    }
}
