import Foundation
import JackwaveSoundFiles

/// A sound file read whole, for assertions.
public struct Recording {
    public let channels: Int
    public let sampleRate: Int
    public let frames: Int
    /// Interleaved samples.
    public let samples: [Float]

    public init(_ path: String) throws {
        let file = try SoundFile(readingFrom: path)
        channels = file.channels
        sampleRate = file.sampleRate
        let n = Int(file.frames)
        frames = n
        var buffer = [Float](repeating: 0, count: max(1, n * file.channels))
        let read = buffer.withUnsafeMutableBufferPointer { file.read(into: $0.baseAddress!, count: n) }
        guard read == n else { throw TestFailure("\(path): read \(read) of \(n) frames") }
        samples = Array(buffer.prefix(n * file.channels))
    }

    /// Interleaved `samples` of `channels` channels, as if read from a file.
    public init(channels: Int, sampleRate: Int = 48000, samples: [Float]) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.samples = samples
        frames = channels > 0 ? samples.count / channels : 0
    }

    /// Sample of `channel` (0-based) at `frame`.
    public subscript(frame: Int, channel: Int) -> Float { samples[frame * channels + channel] }

    /// Sample of `channel` (0-based) at `frame`, or nil past the recording's frames or
    /// channels (a bad run's recording can be short).
    public func sample(frame: Int, channel: Int) -> Float? {
        (0..<frames).contains(frame) && (0..<channels).contains(channel) ? self[frame, channel] : nil
    }
}

extension Recording {
    /// The frames a file being recorded holds now, by its header (which the writer keeps
    /// up to date within `RecordingWriter.crashBound`); 0 while it cannot be read.
    public static func framesSoFar(_ path: String) -> Int {
        (try? SoundFile(readingFrom: path)).map { Int($0.frames) } ?? 0
    }
}

extension Run.Running {
    /// Waits, while the program runs, until the recording at `path` holds more than
    /// `frames` frames: the condition a test needs before it stops or disturbs a
    /// recording, instead of a sleep that guesses how many cycles ran. False if the
    /// program ended or `timeout` seconds passed first.
    public func waitForRecordedFrames(_ path: String, moreThan frames: Int, timeout: Double = 30) -> Bool {
        waitUntil(timeout: timeout) { Recording.framesSoFar(path) > frames || !isRunning }
            && isRunning && Recording.framesSoFar(path) > frames
    }
}

/// The pattern `jackwave-testsource` plays: channel c (0-based) at its frame k.
public enum TestPattern {
    public static func value(frame k: Int, channel c: Int) -> Float {
        Float((k + c * 7919) % 16384 - 8192) / 16384
    }

    /// The source frame whose channel-0 value is `v` (modulo the pattern's period); -1, which
    /// no frame is, for a value no Int holds (NaN, ±inf, a huge sample).
    public static func phase(of v: Float) -> Int {
        guard let steps = Int(exactly: (v * 16384).rounded()), steps < Int.max - 8192 - 16384 else { return -1 }
        return (steps + 8192 + 16384) % 16384
    }

    /// Checks that `recording`, from `startFrame` to its end, is the pattern without a
    /// missing, repeated or swapped sample; returns the first mismatch, if any (`startFrame`
    /// itself when the recording has no frame there).
    public static func firstMismatch(in recording: Recording, from startFrame: Int) -> (frame: Int, channel: Int)? {
        guard let first = recording.sample(frame: startFrame, channel: 0) else { return (startFrame, 0) }
        let k0 = phase(of: first)
        for f in startFrame..<recording.frames {
            for c in 0..<recording.channels where recording[f, c] != value(frame: k0 + f - startFrame, channel: c) {
                return (f, c)
            }
        }
        return nil
    }

    /// How many whole `quantum`-frame cycles of silence (every channel 0) `recording` holds
    /// from `startFrame` to `end`, if they are all that differs from the pattern: after each,
    /// the pattern goes on from where it was or whole cycles later (at most 16). nil if
    /// anything else differs (or `startFrame` … `end` is not within the recording).
    public static func silentCycles(in recording: Recording, from startFrame: Int, upTo end: Int, quantum: Int) -> Int? {
        let channels = 0..<recording.channels
        guard let first = recording.sample(frame: startFrame, channel: 0), end <= recording.frames else { return nil }
        var k = phase(of: first)
        var f = startFrame
        var silent = 0
        var afterSilence = false
        while f < end {
            if channels.allSatisfy({ recording[f, $0] == value(frame: k, channel: $0) }) {
                f += 1
                k += 1
                afterSilence = false
            } else if f + quantum <= recording.frames,
                      (f..<(f + quantum)).allSatisfy({ frame in channels.allSatisfy { recording[frame, $0] == 0 } }) {
                silent += 1
                f += quantum
                afterSilence = true
            } else if afterSilence {
                // The pattern goes on whole cycles later: take up its phase once.
                let ahead = (phase(of: recording[f, 0]) - k % 16384 + 16384) % 16384
                guard ahead % quantum == 0, ahead / quantum <= 16 else { return nil }
                k += ahead
                afterSilence = false
            } else {
                return nil
            }
        }
        return silent
    }
}

/// Paths of the other executables this package builds, next to `jackwave`.
public enum Tools {
    public static var testSource: String {
        URL(fileURLWithPath: Run.jackwave).deletingLastPathComponent().appendingPathComponent("jackwave-testsource").path
    }
    /// `jackwave-ltcsource`: LTC from libltc's encoder, at a level, muted or jumping on demand.
    public static var ltcSource: String {
        URL(fileURLWithPath: Run.jackwave).deletingLastPathComponent().appendingPathComponent("jackwave-ltcsource").path
    }
}

extension TestServer {
    /// Starts `jackwave-testsource` with `channels` ports under client `name` on this server
    /// and waits until it is active (it prints "ready").
    public func startTestSource(channels: Int, name: String = "src") throws -> Run.Running {
        let source = try Run.start(Tools.testSource, ["\(channels)", name], server: self.name)
        let deadline = Date().addingTimeInterval(30)
        while !source.stdoutSoFar.contains("ready") {
            guard Date() < deadline, source.isRunning else { throw TestFailure("test source did not start: \(source.stderrSoFar)") }
            usleep(20_000)
        }
        return source
    }
}
