/// Block peak: the largest absolute sample value of a block.
public enum Peak {
    /// The largest `|x|` over `count` samples (0 for an empty block).
    @inlinable
    public static func of(_ samples: UnsafePointer<Float>, count: Int) -> Float {
        var peak: Float = 0
        for i in 0..<count { peak = max(peak, abs(samples[i])) }
        return peak
    }
}
