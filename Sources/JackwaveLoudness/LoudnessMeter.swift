import CEbur128

/// A libebur128 meter: the one place jackwave calls libebur128, each method wrapping the
/// `ebur128_*` function its doc line names. Frames are interleaved 32-bit floats; loudness is
/// in LUFS (−∞ for silence), peaks linear. Not thread-safe: it belongs to its feeding thread.
public final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?
    /// Channels per frame.
    public let channels: Int
    /// Frames per second.
    public let sampleRate: Int

    /// `ebur128_init`: a meter for `channels` at `sampleRate` that can answer what `modes`
    /// ask for; nil if libebur128 refuses (no channels, a rate it cannot filter, no memory).
    public init?(channels: Int, sampleRate: Int, modes: LoudnessModes) {
        guard channels > 0, sampleRate > 0,
              let s = ebur128_init(UInt32(channels), UInt(sampleRate), Int32(modes.rawValue)) else { return nil }
        state = s
        self.channels = channels
        self.sampleRate = sampleRate
    }

    /// `ebur128_destroy`.
    deinit { ebur128_destroy(&state) }

    /// `ebur128_set_channel`: how channel `index` counts towards loudness (BS.1770's
    /// weights); false if refused.
    @discardableResult
    public func setWeight(_ weight: ChannelWeight, channel index: Int) -> Bool {
        ebur128_set_channel(state, UInt32(index), Int32(weight.ebur128Channel.rawValue)) == Int32(EBUR128_SUCCESS.rawValue)
    }

    /// `ebur128_add_frames_float`: measures `count` more interleaved frames; false if
    /// libebur128 ran out of memory.
    @discardableResult
    public func add(_ frames: UnsafePointer<Float>, count: Int) -> Bool {
        ebur128_add_frames_float(state, frames, count) == Int32(EBUR128_SUCCESS.rawValue)
    }

    /// `ebur128_loudness_momentary`: the last 400 ms.
    public var momentary: Double { read { ebur128_loudness_momentary(state, $0) } }

    /// `ebur128_loudness_shortterm`: the last 3 s.
    public var shortTerm: Double { read { ebur128_loudness_shortterm(state, $0) } }

    /// `ebur128_loudness_window`: the last `milliseconds` (at most the longest window the
    /// modes keep: 3 s with `.shortTerm`), ungated.
    public func loudness(lastMilliseconds milliseconds: Int) -> Double {
        read { ebur128_loudness_window(state, UInt(milliseconds), $0) }
    }

    /// `ebur128_loudness_global`: libebur128's own gated loudness, which the tests hold
    /// `LoudnessHistogram`'s against (jackwave measures with the histogram, fixed in size).
    public var integrated: Double { read { ebur128_loudness_global(state, $0) } }

    /// `ebur128_loudness_range`: the loudness range (EBU Tech 3342), in LU (libebur128's
    /// own answer, for the tests, as `integrated`).
    public var loudnessRange: Double { read { ebur128_loudness_range(state, $0) } }

    /// One libebur128 reading; NaN if it refused (a mode the meter was not made with).
    private func read(_ call: (UnsafeMutablePointer<Double>) -> Int32) -> Double {
        var out = 0.0
        return call(&out) == Int32(EBUR128_SUCCESS.rawValue) ? out : .nan
    }
}
