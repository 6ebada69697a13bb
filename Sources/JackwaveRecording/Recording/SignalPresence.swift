/// Which channels of an interleaved stream have carried anything but digital silence.
///
/// A sample counts as signal unless it is exactly zero (`-0.0` is zero; NaN is signal:
/// something arrived). Once every channel has been heard, `observe` returns at once, so
/// watching a live recording costs one scan of its first frames, not of every frame.
public struct SignalPresence: Sendable {
    /// Per channel: heard since the start.
    public private(set) var heard: [Bool]
    private var unheard: Int

    public init(channels: Int) {
        heard = Array(repeating: false, count: channels)
        unheard = channels
    }

    /// The channels never heard, from 0.
    public var silentChannels: [Int] { heard.indices.filter { !heard[$0] } }

    /// Looks at `frames` interleaved frames.
    public mutating func observe(_ samples: UnsafePointer<Float>, frames: Int) {
        guard unheard > 0 else { return }
        let channels = heard.count
        for c in 0..<channels where !heard[c] {
            var i = c
            let end = frames * channels
            while i < end {
                if samples[i] != 0 || samples[i].isNaN {
                    heard[c] = true
                    unheard -= 1
                    break
                }
                i += channels
            }
        }
    }
}
