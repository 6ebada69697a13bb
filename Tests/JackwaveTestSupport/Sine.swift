import Glibc

/// The tests' one sine: computed in double precision and rounded to `Float` once, so that
/// every test's truth is the same signal. `frames` frames of `frequency` Hz at `sampleRate`
/// (1 for cycles per sample), peaking at `amplitude`, from frame `start`; interleaved on
/// `channels`, channel c scaled by `gain(c)` and advanced by `phase(c)` radians.
public func sineWave(frames: Int, frequency: Double, sampleRate: Double, amplitude: Double, start: Int = 0,
                 channels: Int = 1, phase: (Int) -> Double = { _ in 0 }, gain: (Int) -> Double = { _ in 1 }) -> [Float] {
    var out = [Float](repeating: 0, count: max(0, frames) * max(0, channels))
    let step = 2 * Double.pi * frequency / sampleRate
    for i in 0..<max(0, frames) {
        for c in 0..<max(0, channels) {
            out[i * channels + c] = Float(amplitude * gain(c) * sin(step * Double(start + i) + phase(c)))
        }
    }
    return out
}
