import Foundation
import JackwaveTestSupport

/// The test pattern as a link delivered it: where it holds sample for sample, and what lies
/// between (glitches: a run of zeros, a skip, a repeat). Computed from the pattern's closed
/// form (`TestPattern.value`), not from what jackwave reports.
struct PatternStretches {
    /// One stretch where every frame is the pattern frame after the one before: its first
    /// recording frame, its length, and the pattern frame (of channel 0) it starts at.
    struct Stretch: Equatable {
        let start: Int
        let frames: Int
        let patternFrame: Int
    }
    /// What lies between two stretches.
    struct Glitch: Equatable {
        let start: Int
        let frames: Int
        /// It has frames, and every sample of them is exactly zero (false for a skip, where one
        /// stretch follows the other at once with the pattern jumping ahead).
        let isZeros: Bool
        /// Pattern frames the next stretch is ahead of where the last one would have gone on
        /// (mod 16384): 0 when the glitch replaced the pattern (zeros for a lost packet and
        /// the pattern went on later by as much), negative when frames were repeated.
        let patternJump: Int
    }

    let stretches: [Stretch]
    let glitches: [Glitch]
    /// Frames before the first stretch (the link starting up), all exactly zero or not.
    let leadIn: Int
    let leadInIsZeros: Bool

    /// The pattern frame (channel 0's numbering) that `value` on pattern channel `c` is.
    static func patternFrame(of value: Float, channel c: Int) -> Int {
        ((TestPattern.phase(of: value) - c * 7919) % 16384 + 16384) % 16384
    }

    /// Whether frame `f` of `recording` is pattern frame `k` on every channel, recording
    /// channel `r` carrying pattern channel `channels[r]`.
    static func holds(_ recording: Recording, _ f: Int, _ k: Int, channels: [Int]) -> Bool {
        channels.enumerated().allSatisfy { r, c in recording[f, r] == TestPattern.value(frame: k, channel: c) }
    }

    /// Splits `recording` (its channels `columns`, carrying pattern channels `patternChannels`)
    /// into stretches of at least `minimum` frames and the glitches between them.
    init(_ recording: Recording, patternChannels: [Int], minimum: Int = 64) {
        var stretches: [Stretch] = []
        var f = 0
        // A recording with fewer channels than the pattern's (a bad run's) holds no stretch.
        let fits = !patternChannels.isEmpty && patternChannels.count <= recording.channels
        while fits, f < recording.frames {
            let k0 = Self.patternFrame(of: recording[f, 0], channel: patternChannels[0])
            guard Self.holds(recording, f, k0, channels: patternChannels) else { f += 1; continue }
            var n = 1
            while f + n < recording.frames, Self.holds(recording, f + n, k0 + n, channels: patternChannels) { n += 1 }
            if n >= minimum {
                stretches.append(Stretch(start: f, frames: n, patternFrame: k0))
                f += n
            } else {
                f += 1
            }
        }
        func zeros(_ range: Range<Int>) -> Bool {
            range.allSatisfy { frame in (0..<recording.channels).allSatisfy { recording[frame, $0] == 0 } }
        }
        var glitches: [Glitch] = []
        for (a, b) in zip(stretches, stretches.dropFirst()) {
            let end = a.start + a.frames
            let expected = a.patternFrame + (b.start - a.start)
            var jump = ((b.patternFrame - expected) % 16384 + 16384) % 16384
            if jump > 8192 { jump -= 16384 }
            glitches.append(Glitch(start: end, frames: b.start - end, isZeros: b.start > end && zeros(end..<b.start),
                                   patternJump: jump))
        }
        self.stretches = stretches
        self.glitches = glitches
        leadIn = stretches.first?.start ?? recording.frames
        leadInIsZeros = zeros(0..<leadIn)
    }

    /// Frames in stretches.
    var exactFrames: Int { stretches.reduce(0) { $0 + $1.frames } }
}
