/// `--overlap SECONDS`: each piece's file also holds O = round(SECONDS × rate) frames before
/// its start and after its end, so that a programme crossing a boundary is whole in one file.
/// The pieces themselves still join sample-exact. A file never reaches past a neighbour's far
/// cut, nor before frame 0 or past the recording's end; it is named after its own piece's
/// start, and its `bext` time is its first frame's. At most half the period.
public enum OverlapSpans {
    /// The frames piece `k`'s file holds, for cuts `cuts` (the first is 0; the frames after
    /// the last cut belong to the last piece) and a recording of `end` frames.
    public static func file(piece k: Int, cuts: [Int64], overlap: Int64, end: Int64) -> Range<Int64> {
        let start = cuts[k], stop = k + 1 < cuts.count ? cuts[k + 1] : end
        let low = max(start - overlap, k > 0 ? cuts[k - 1] : 0, 0)
        let high = min(stop + overlap, k + 2 < cuts.count ? cuts[k + 2] : end, end)
        return low..<max(low, high)
    }

    /// The frames written twice at cut `k` (k ≥ 1): at the end of piece k−1's file and the
    /// start of piece k's.
    public static func doubled(atCut k: Int, cuts: [Int64], overlap: Int64, end: Int64) -> Range<Int64> {
        precondition(k >= 1 && k < cuts.count)
        let low = max(cuts[k] - overlap, cuts[k - 1])
        let high = min(cuts[k] + overlap, k + 1 < cuts.count ? cuts[k + 1] : end, end)
        return low..<max(low, high)
    }
}
