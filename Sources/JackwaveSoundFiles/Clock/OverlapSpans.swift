/// `--overlap SECONDS`: each piece's file also holds the last SECONDS before its start and
/// the first SECONDS after its end, so that a programme that crosses a boundary is whole in
/// one file (rotter's and chronicle's "minutes before and after the hour").
///
/// Exactly, with cuts at frames C(k) (piece k's own frames are [C(k), C(k+1)), as without
/// overlap: the pieces still join sample-exact) and O = round(SECONDS × rate) frames:
/// - piece k's **file** holds [max(C(k) − O, C(k−1), 0), min(C(k+1) + O, C(k+2), end)):
///   its own frames, O before, O after, never reaching past a neighbour's far cut;
/// - the frames **doubled** at cut C(k) are [max(C(k) − O, C(k−1)), min(C(k) + O, C(k+1))):
///   2 × O frames (fewer next to a piece shorter than O), each in the files of pieces k−1
///   and k, at the end of the one and the start of the other;
/// - the first file starts at frame 0 and the last ends with the recording: nothing before
///   or after the recording is invented.
/// A frame is in two files at most, except in a piece shorter than 2 × O (only after a
/// wall-clock step, `WallClockCuts`), which can share frames with both neighbours. A file is
/// named after its own piece's start (`C(k)`'s time), not after its first frame; its `bext`
/// time (WAV) is its first frame's. `--overlap` must be at most half the period.
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
