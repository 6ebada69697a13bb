/// A check of a capture before analysis: a cycle lost on the way (a loaded PipeWire sometimes
/// runs a client without a cycle of its source's output) shows as a short run of exact zeros
/// inside a loud signal, which the programme never has: its silences are 10 ms or longer,
/// with faded edges.
public enum CaptureCheck {
    /// Runs of zeros from this long (frames) count; shorter ones are zero crossings.
    static let shortest = 16
    /// Runs longer than this are a silence, not a lost cycle (JACK's longest period).
    static let longest = 8192
    /// The RMS of the 16 frames on each side above which the signal around a run is loud
    /// (−60 dBFS, as a sine's RMS).
    static let loud: Float = 0.000_707

    /// The first lost cycle in `captured` (one array per input): the input (from 0), the
    /// frame where the silence starts and its length; nil when there is none.
    public static func lostCycle(in captured: [[Float]]) -> (input: Int, frame: Int, frames: Int)? {
        for (input, samples) in captured.enumerated() {
            var n = 0
            while n < samples.count {
                guard samples[n] == 0 else { n += 1; continue }
                var end = n
                while end < samples.count && samples[end] == 0 { end += 1 }
                let length = end - n
                if length >= shortest && length <= longest && n >= shortest && end + shortest <= samples.count
                    && rms(samples[(n - shortest)..<n]) > loud && rms(samples[end..<(end + shortest)]) > loud {
                    return (input, n, length)
                }
                n = end
            }
        }
        return nil
    }

    static func rms(_ x: ArraySlice<Float>) -> Float {
        (x.reduce(0) { $0 + $1 * $1 } / Float(x.count)).squareRoot()
    }
}
