import Foundation
import JackwavePlot
import JackwaveSoundFiles
import JackwaveTestSupport

/// A fresh directory for one test's files, removed when the value goes away.
final class Scratch {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "jackwave-plot-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes interleaved float frames to a 32-bit float WAV.
    @discardableResult
    func wav(_ name: String, _ samples: [Float], channels: Int, sampleRate: Int) throws -> String {
        let p = file(name)
        let f = try SoundFile(writingTo: p, format: 0x010006, channels: channels, sampleRate: sampleRate)
        let frames = samples.count / channels
        if frames > 0 {
            _ = samples.withUnsafeBufferPointer { f.write($0.baseAddress!, count: frames) }
        }
        f.close()
        return p
    }

    /// Writes text to a file.
    @discardableResult
    func text(_ name: String, _ contents: String) throws -> String {
        let p = file(name)
        try contents.write(toFile: p, atomically: false, encoding: .utf8)
        return p
    }

    /// Writes bytes to a file (a MIDI file from `MidiFileBytes`, or a damaged one).
    @discardableResult
    func bytes(_ name: String, _ contents: [UInt8]) throws -> String {
        let p = file(name)
        try Data(contents).write(to: URL(fileURLWithPath: p))
        return p
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name)) }

    /// The names of everything in the directory (to see that no stray file was left).
    var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
}

/// A deterministic noise source, so failures reproduce.
struct Noise {
    private var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    /// -1…1.
    mutating func next() -> Float {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return Float(Double(state >> 11) / Double(1 << 53) * 2 - 1)
    }
}

/// A sine of `frequency` Hz at `amplitude`, on every channel with a phase offset per channel.
func sine(frames: Int, channels: Int, sampleRate: Int, frequency: Double, amplitude: Float) -> [Float] {
    sineWave(frames: frames, frequency: frequency, sampleRate: Double(sampleRate), amplitude: Double(amplitude),
             channels: channels, phase: { Double($0) })
}

/// A PNG decoded by cairo, its pixels ready to read.
func decodedPNG(_ path: String) -> CairoSurface {
    let surface = CairoSurface.image(png: path)
    surface.flush()
    return surface
}

/// A MIDI file as jackwave records one beside a 48 kHz take: a conductor track with the tempo
/// (10 000 µs a quarter note at 480 ticks a quarter, so a tick is a frame), then a track per
/// port. Here: "keys" plays middle C (60) at 1 s for 0.5 s, velocity 100, on channel 2, and
/// G4 (67) at 2 s for 0.25 s, velocity 127; "bass" plays C2 (36) at 1.5 s for 1 s; the
/// conductor's end of track is at 4 s.
func jackwaveTake() -> MidiFileBytes {
    var conductor = MidiFileBytes.Track(name: "take")
    conductor.tempo(10_000)
    conductor.end = 192_000
    var keys = MidiFileBytes.Track(name: "keys")
    keys.note(60, at: 48_000, length: 24_000, velocity: 100, channel: 2)
    keys.note(67, at: 96_000, length: 12_000, velocity: 127, channel: 2)
    var bass = MidiFileBytes.Track(name: "bass")
    bass.note(36, at: 72_000, length: 48_000, velocity: 90)
    return MidiFileBytes(division: 480, tracks: [conductor, keys, bass])
}
