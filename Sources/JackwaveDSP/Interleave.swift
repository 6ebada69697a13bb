/// Converting between JACK's one-buffer-per-port layout and interleaved frames.
///
/// Kernels take raw pointers and counts so that they run unchanged in the realtime
/// callback (over JACK port buffers and ring regions) and offline (over file buffers).
public enum Interleave {
    /// Writes `frames` frames into `destination` as interleaved samples
    /// (`channels` per frame), taking channel `c` from `sources[c] + sourceOffset`.
    @inlinable
    public static func interleave(from sources: UnsafePointer<UnsafePointer<Float>>, channels: Int,
                                  sourceOffset: Int, frames: Int,
                                  into destination: UnsafeMutablePointer<Float>) {
        if channels == 1 {
            destination.update(from: sources[0] + sourceOffset, count: frames)
            return
        }
        if channels == 2 {
            // The common stereo case as one pass with both streams in flight.
            let left = sources[0] + sourceOffset, right = sources[1] + sourceOffset
            for f in 0..<frames {
                destination[2 &* f] = left[f]
                destination[2 &* f &+ 1] = right[f]
            }
            return
        }
        for c in 0..<channels {
            let source = sources[c] + sourceOffset
            var out = destination + c
            for f in 0..<frames {
                out.pointee = source[f]
                out += channels
            }
        }
    }

    /// Splits `frames` interleaved frames of `channels` samples into one buffer per channel
    /// (`destinations[c]`, written from index `destinationOffset`).
    @inlinable
    public static func deinterleave(_ source: UnsafePointer<Float>, channels: Int, frames: Int,
                                    into destinations: UnsafePointer<UnsafeMutablePointer<Float>>,
                                    destinationOffset: Int = 0) {
        for c in 0..<channels {
            let out = destinations[c] + destinationOffset
            var input = source + c
            for f in 0..<frames {
                out[f] = input.pointee
                input += channels
            }
        }
    }
}
