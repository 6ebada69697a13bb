@testable import JackwaveMIDI
import JackwaveTestSupport
import Testing

/// The numbers of a Standard MIDI File: each edge of one, two, three and four bytes, and the
/// values no four bytes hold.
@Suite("VariableLengthQuantity")
struct VariableLengthQuantityTests {
    @Test("each value is written in as few bytes as it needs, seven bits a byte, most significant first", arguments: [
        (0, [0x00]), (0x40, [0x40]), (0x7F, [0x7F]), (0x80, [0x81, 0x00]), (0x2000, [0xC0, 0x00]), (0x3FFF, [0xFF, 0x7F]),
        (0x4000, [0x81, 0x80, 0x00]), (0x1F_FFFF, [0xFF, 0xFF, 0x7F]), (0x20_0000, [0x81, 0x80, 0x80, 0x00]),
        (0x0800_0000, [0xC0, 0x80, 0x80, 0x00]), (0x0FFF_FFFF, [0xFF, 0xFF, 0xFF, 0x7F]),
    ] as [(Int, [UInt8])])
    func edges(value: Int, bytes: [UInt8]) {
        #expect(VariableLengthQuantity.bytes(value) == bytes)
        // The fixtures' own encoder, written from the format's description, agrees.
        #expect(MidiFileBytes.number(value) == bytes)
    }

    @Test("a value that four bytes cannot hold, or a negative one, is refused and nothing is appended",
          arguments: [-1, 0x1000_0000, Int.max, Int.min])
    func outOfRange(value: Int) {
        var bytes: [UInt8] = [0x42]
        #expect(!VariableLengthQuantity.append(value, to: &bytes))
        #expect(bytes == [0x42])
        #expect(VariableLengthQuantity.bytes(value) == nil)
    }
}
