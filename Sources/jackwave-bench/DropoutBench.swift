import Foundation
import JackwaveAnalysis
import JackwaveHost

/// `--dropouts`: what the dropout detection costs the writer thread, which feeds it every
/// frame of a recording: ns per channel-frame, and the share of one core that makes at
/// 48 kHz. Fed as the writer feeds it, 100 ms (one pass) at a time: a different tone on
/// each channel (no dropout in it: the common case), and silence (idle inputs, the dummy
/// server's capture ports).
func dropoutTable(options o: Options) {
    print("Dropout detection on the writer thread, offline: ns per channel-frame (best of \(o.runs) runs of \(Int(o.runSeconds * 1000)) ms), passes of 4800 frames, period 256")
    print("")
    print("| channels | signal | ns per channel-frame | % of a core at 48 kHz |")
    print("|---:|---|---:|---:|")
    for channels in o.channels {
        for silent in [false, true] { dropoutRow(channels: channels, silent: silent, options: o) }
    }
}

/// One row of `dropoutTable`.
func dropoutRow(channels: Int, silent: Bool, options o: Options) {
    let pass = 4800
    var samples = [Float](repeating: 0, count: pass * 10 * channels)
    for f in 0..<(pass * 10) where !silent {
        for c in 0..<channels {
            samples[f * channels + c] = Float(0.25 * sin(2 * Double.pi * (200 + 37 * Double(c)) * Double(f) / Double(sampleRate)))
        }
    }
    var detector = DropoutDetector(channels: channels, thresholds: .default(sampleRate: sampleRate, period: 256), listLimit: 0)
    var at = 0
    let perPass = samples.withUnsafeBufferPointer { all in
        bestTimePerCall(seconds: o.runSeconds, runs: o.runs) {
            let start = (at % 10) * pass * channels
            _ = detector.feed(UnsafeBufferPointer(rebasing: all[start..<(start + pass * channels)]), frames: pass)
            at += 1
        }
    }
    if detector.counts.reduce(0, +) != 0 { print("(the test signal had dropouts: \(detector.counts))") }
    let perChannelFrame = perPass / Double(pass * channels)
    print("| \(channels) | \(silent ? "silence" : "tones") | \(format(perChannelFrame)) | \(format(perChannelFrame * Double(channels * sampleRate) / 1e7, 2)) |")
}
