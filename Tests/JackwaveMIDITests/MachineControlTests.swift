import JackwaveDSP
import Testing

/// `MachineControl.command`: which MIDI Machine Control command an event carries
/// (`F0 7F <device> 06 <command> F7`), or none.
@Suite("MachineControl")
struct MachineControlTests {
    func command(_ bytes: [UInt8]) -> MachineControl? {
        bytes.withUnsafeBufferPointer { b in b.baseAddress.flatMap { MachineControl.command(in: $0, length: b.count) } }
    }

    @Test("STOP (01) to any device is .stop")
    func stop() { #expect(command([0xF0, 0x7F, 0x7F, 0x06, 0x01, 0xF7]) == .stop) }

    @Test("RECORD STROBE (06) to device 3 is .recordStrobe")
    func recordStrobe() { #expect(command([0xF0, 0x7F, 0x03, 0x06, 0x06, 0xF7]) == .recordStrobe) }

    @Test("RECORD EXIT (07) is .recordExit")
    func recordExit() { #expect(command([0xF0, 0x7F, 0x7F, 0x06, 0x07, 0xF7]) == .recordExit) }

    @Test("LOCATE (44) with its time code is .other: heard, not acted on")
    func locateIsOther() {
        #expect(command([0xF0, 0x7F, 0x7F, 0x06, 0x44, 0x06, 0x01, 0x21, 0x00, 0x00, 0x00, 0x00, 0xF7]) == .other)
    }

    @Test("PLAY (02) is .other")
    func playIsOther() { #expect(command([0xF0, 0x7F, 0x7F, 0x06, 0x02, 0xF7]) == .other) }

    @Test("a non-real-time universal SysEx (F0 7E …, an identity request) is no command")
    func nonRealTimeSysExIsNil() { #expect(command([0xF0, 0x7E, 0x7F, 0x06, 0x01, 0xF7]) == nil) }

    @Test("an MMC response (sub-ID 07), not a command, is nil")
    func responseIsNil() { #expect(command([0xF0, 0x7F, 0x7F, 0x07, 0x01, 0xF7]) == nil) }

    @Test("too short a message (5 bytes) is nil")
    func tooShortIsNil() { #expect(command([0xF0, 0x7F, 0x7F, 0x06, 0xF7]) == nil) }

    @Test("a message not ending in F7 is nil")
    func unterminatedIsNil() { #expect(command([0xF0, 0x7F, 0x7F, 0x06, 0x06, 0x00]) == nil) }

    @Test("a channel message is nil")
    func channelMessageIsNil() { #expect(command([0x90, 0x3C, 0x64]) == nil) }
}
