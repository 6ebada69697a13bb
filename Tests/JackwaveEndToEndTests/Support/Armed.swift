import Foundation
import JackwaveTestSupport

/// What `jackwave-testsource --bursts` plays: the pattern at 1/256 of its level (quiet), or
/// moved 0.25 away from zero (loud). Every sample tells which it is and its pattern frame.
enum BurstPattern {
    /// Whether `x` is a loud sample, and its frame in the pattern (modulo 16384).
    static func decode(_ x: Float) -> (loud: Bool, phase: Int) {
        let loud = abs(x) >= 0.25
        let v = loud ? (x > 0 ? x - 0.25 : x + 0.25) : x * 256
        return (loud, TestPattern.phase(of: v))
    }

    /// The first frame of channel 0 that breaks the run of consecutive pattern frames, if any.
    static func firstSlip(in recording: Recording) -> Int? {
        guard recording.frames > 0 else { return nil }
        let k0 = decode(recording[0, 0]).phase
        for f in 0..<recording.frames where decode(recording[f, 0]).phase != (k0 + f) % 16384 { return f }
        return nil
    }

    /// The first loud frame of channel 0, if any.
    static func firstLoud(in recording: Recording) -> Int? {
        (0..<recording.frames).first { decode(recording[$0, 0]).loud }
    }
}

extension TestServer {
    /// Starts `jackwave-testsource` with extra options (`--bursts …`, `--transport`) and
    /// waits until it is active.
    func startArmedSource(_ options: [String], channels: Int = 1, name: String = "src") throws -> Run.Running {
        let source = try Run.start(Tools.testSource, ["\(channels)", name] + options, server: self.name)
        guard waitUntil(timeout: 30, { source.stdoutSoFar.contains("ready") || !source.isRunning }),
              source.stdoutSoFar.contains("ready") else {
            throw TestFailure("test source did not start: \(source.stderrSoFar)")
        }
        return source
    }
}

extension Run.Running {
    /// The last frame a `--levels -` stream on stdout has reached (0 before its first row).
    var levelFrame: Int {
        let lines = stdoutSoFar.split(separator: "\n")
        // The last line may be cut short: take the last one that ends with a newline.
        guard let line = stdoutSoFar.hasSuffix("\n") ? lines.last : lines.dropLast().last else { return 0 }
        return Int(line.split(separator: ",").first ?? "") ?? 0
    }

    /// Waits until the run's level stream has passed `frames` (jackwave has heard that much).
    func waitForLevelFrame(atLeast frames: Int, timeout: Double = 60) -> Bool {
        waitUntil(timeout: timeout) { levelFrame >= frames || !isRunning } && levelFrame >= frames
    }
}
