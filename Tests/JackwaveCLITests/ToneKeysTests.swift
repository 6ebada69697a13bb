import Testing
@testable import JackwaveCLI

@Suite("Tone keys")
struct ToneKeysTests {
    @Test("arrow escape sequences, space, plus, minus and q parse to their keys")
    func parsesKeys() {
        let bytes: [UInt8] = [0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x4F, 0x43, 0x1B, 0x5B, 0x44] + Array(" +-qx".utf8)
        #expect(ToneKeyParser.parse(bytes) == [.semitoneUp, .semitoneDown, .centUp, .centDown, .pause, .louder, .quieter, .quit])
    }

    @Test("up then down a semitone returns to the starting frequency")
    func semitoneRoundTrip() {
        var p = ToneParameters(frequency: 440, amplitude: 0.1, nyquist: 24000)
        p.apply(.semitoneUp)
        #expect(abs(p.frequency - 466.1637615180899) < 1e-9)
        p.apply(.semitoneDown)
        #expect(abs(p.frequency - 440) < 1e-9)
    }

    @Test("a cent is one twelve-hundredth of an octave")
    func cent() {
        var p = ToneParameters(frequency: 1000, amplitude: 0.1, nyquist: 24000)
        for _ in 0..<1200 { p.apply(.centUp) }
        #expect(abs(p.frequency - 2000) < 1e-6)
    }

    @Test("volume steps by one decibel and never passes full scale")
    func volumeSteps() {
        var p = ToneParameters(frequency: 440, amplitude: 0.1, nyquist: 24000)
        p.apply(.quieter)
        #expect(abs(p.amplitude - 0.0891251) < 1e-6)
        for _ in 0..<40 { p.apply(.louder) }
        #expect(p.amplitude == 1)
    }

    @Test("a frequency step that would reach Nyquist is ignored")
    func nyquistGuard() {
        var p = ToneParameters(frequency: 23000, amplitude: 0.1, nyquist: 24000)
        p.apply(.semitoneUp)
        #expect(p.frequency == 23000)
    }

    @Test("the status text shows frequency, level in dBFS and pause")
    func statusText() {
        var p = ToneParameters(frequency: 440, amplitude: 0.1, nyquist: 24000)
        p.apply(.pause)
        #expect(p.description == "440.00 Hz  -20.0 dBFS  paused")
    }
}
