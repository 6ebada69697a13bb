import Foundation
import Glibc
import JackwaveDSP
@testable import JackwaveMIDI
import JackwaveTestSupport
import Testing

/// A Standard MIDI File brought up to date in place, as a recording writes it: only what
/// changed is written, and the file on disk must be the whole file as it stands after every
/// writing, however its tracks grew.
@Suite("StandardMidiFile, written in place")
struct StandardMidiFileWritingTests {
    let dir = temporaryDirectory()

    /// What the descriptor holds, read back whole.
    func onDisk(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test("after every writing the file on disk is, byte for byte, the whole file as it stands", arguments: [
        (1, UInt64(1)), (1, 2), (3, 3), (3, 4), (3, 5), (8, 6),
    ])
    func diskMatchesImage(inputs: Int, seed: UInt64) throws {
        let path = dir + "/take-\(inputs)-\(seed).mid"
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        let f = try StandardMidiFile(trackNames: (0..<inputs).map { "in\($0)" }, timing: MidiTiming(fileRate: 192_000))
        var random = SplitMix64(seed: seed)
        var end = 0
        var lastTick = Array(repeating: 0, count: inputs)
        let messages: [[UInt8]] = [[0x90, 0x3C, 0x64], [0xF8], [0xFE], [0xF2, 0x30, 0x00], [0xF0, 0x7D, 0x01, 0x02, 0xF7], [0xC1, 0x05]]
        for step in 0..<300 {
            // A refresh's worth of events: none, a few, or many; on one input or several.
            for _ in 0..<Int(random.next() % 6) {
                let input = Int(random.next() % UInt64(inputs))
                // Mostly near the end; now and then a wait far longer than a delta time holds
                // (bridged), or an event at the track's last tick.
                let jump: Int
                switch random.next() % 20 {
                case 0: jump = Int(random.next() % UInt64(3 * VariableLengthQuantity.maximum))
                case 1: jump = 0
                default: jump = Int(random.next() % 20_000)
                }
                let tick = max(end, lastTick[input]) + jump
                lastTick[input] = tick
                let message = step % 50 == 49 ? [0xF0] + [UInt8](repeating: 0x11, count: 300) + [0xF7]
                    : messages[Int(random.next() % UInt64(messages.count))]
                #expect(f.add(message, input: input, tick: tick))
            }
            end += Int(random.next() % 48_000)
            try f.write(to: fd, endTick: end)
            let disk = try onDisk(path)
            let image = f.image(endTick: end)
            guard disk == image else {
                Issue.record("step \(step): \(disk.count) bytes on disk, \(image.count) in the file; first difference at \((0..<min(disk.count, image.count)).first { disk[$0] != image[$0] } ?? min(disk.count, image.count))")
                return
            }
        }
        // And the readers read it.
        #expect(try MidiCSV(path).ends.count == inputs + 1)
        #expect(try SMFReader(path, with: .portSMF).trackCount == inputs + 1)
    }

    @Test("a writing that fails says why, and the next one writes the whole file again")
    func failedWritingIsRepaired() throws {
        let path = dir + "/take.mid"
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        let f = try StandardMidiFile(trackNames: ["a", "b"], timing: MidiTiming(fileRate: 48000))
        #expect(f.add([0x90, 0x3C, 0x64], input: 1, tick: 100))
        try f.write(to: fd, endTick: 1000)
        // The same descriptor number, for a moment open only for reading: the writing fails.
        let saved = dup(fd)
        let readOnly = open(path, O_RDONLY | O_CLOEXEC)
        try #require(saved >= 0 && readOnly >= 0)
        #expect(dup2(readOnly, fd) == fd)
        #expect(f.add([0x90, 0x3E, 0x64], input: 0, tick: 200))
        #expect(throws: MidiFileError.self) { try f.write(to: fd, endTick: 2000) }
        // Scribbled over meanwhile; writable again: the next writing makes it whole.
        #expect(dup2(saved, fd) == fd)
        close(saved)
        close(readOnly)
        _ = "garbage".withCString { pwrite(fd, $0, 7, 20) }
        try f.write(to: fd, endTick: 3000)
        #expect(try onDisk(path) == f.image(endTick: 3000))
    }
}
