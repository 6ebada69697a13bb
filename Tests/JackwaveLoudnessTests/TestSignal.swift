import Foundation
@testable import JackwaveLoudness

/// Interleaved test signals, built segment by segment, and measured without a file.
struct TestSignal {
    let sampleRate: Int
    let channels: Int
    private(set) var samples: [Float] = []

    init(sampleRate: Int = 48000, channels: Int = 2) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    var frames: Int { samples.count / channels }

    /// Appends `seconds` of a sine of `frequency` Hz peaking at `dBFS` (per channel), in the
    /// channels `only` lists (all by default), starting at `phaseDegrees` relative to the
    /// segment's first sample; silence elsewhere. A sine's phase restarts with each segment,
    /// as the EBU files' steps do not need it continuous. `fade` seconds of raised cosine at
    /// each end, if given, keep an abrupt start from adding its own overshoot.
    mutating func sine(_ frequency: Double = 1000, dBFS: Double, seconds: Double, phaseDegrees: Double = 0,
                       fade: Double = 0, only: [Int]? = nil) {
        let amplitude = pow(10, dBFS / 20)
        let n = Int((seconds * Double(sampleRate)).rounded())
        let phase = phaseDegrees * .pi / 180
        let on = Set(only ?? Array(0..<channels))
        samples.reserveCapacity(samples.count + n * channels)
        let fadeFrames = Int(fade * Double(sampleRate))
        for i in 0..<n {
            let edge = min(i, n - 1 - i)
            let gain = edge < fadeFrames ? 0.5 - 0.5 * cos(.pi * Double(edge) / Double(fadeFrames)) : 1
            let v = Float(gain * amplitude * sin(2 * .pi * frequency * Double(i) / Double(sampleRate) + phase))
            for c in 0..<channels { samples.append(on.contains(c) ? v : 0) }
        }
    }

    /// Appends `seconds` of digital silence.
    mutating func silence(seconds: Double) {
        samples.append(contentsOf: repeatElement(0, count: Int((seconds * Double(sampleRate)).rounded()) * channels))
    }

    /// Appends `frames` of samples made by `value(frame, channel)`.
    mutating func append(frames: Int, _ value: (Int, Int) -> Float) {
        for f in 0..<frames { for c in 0..<channels { samples.append(value(f, c)) } }
    }

    /// An analyzer fed the whole signal in chunks of `chunk` frames; without the true peak
    /// unless asked (only `summary` reports it, and in a debug build the filter is most of
    /// a test's time).
    func analyzed(weighting: ChannelWeighting? = nil, chunk: Int = 4096, truePeak: Bool = false) throws -> LoudnessAnalyzer {
        let w = weighting ?? ChannelWeighting(channels: channels, positions: nil)
        guard let analyzer = LoudnessAnalyzer(sampleRate: sampleRate, weighting: w, truePeak: truePeak) else {
            throw TestSignalError.refused
        }
        samples.withUnsafeBufferPointer { p in
            var f = 0
            while f < frames {
                let n = min(chunk, frames - f)
                analyzer.add(p.baseAddress! + f * channels, count: n)
                f += n
            }
        }
        return analyzer
    }

    /// Momentary and short-term loudness after every 10-ms step, with the step's end in
    /// seconds, from an analyzer fed one step at a time.
    func series(weighting: ChannelWeighting? = nil) throws -> [(time: Double, momentary: Double, shortTerm: Double)] {
        let w = weighting ?? ChannelWeighting(channels: channels, positions: nil)
        guard let analyzer = LoudnessAnalyzer(sampleRate: sampleRate, weighting: w, truePeak: false) else { throw TestSignalError.refused }
        var out: [(Double, Double, Double)] = []
        samples.withUnsafeBufferPointer { p in
            var f = 0
            while f < frames {
                let n = min(analyzer.framesToNextStep, frames - f)
                analyzer.add(p.baseAddress! + f * channels, count: n)
                f += n
                if analyzer.framesToNextStep == analyzer.stepFrames {
                    out.append((Double(f) / Double(sampleRate), analyzer.momentary, analyzer.shortTerm))
                }
            }
        }
        return out
    }

    /// The summary of the whole signal.
    func summary(weighting: ChannelWeighting? = nil) throws -> LoudnessSummary {
        let w = weighting ?? ChannelWeighting(channels: channels, positions: nil)
        return LoudnessSummary(try analyzed(weighting: w, truePeak: true), weighting: w, frames: Int64(frames))
    }
}

enum TestSignalError: Error { case refused }
