import JackwaveSoundFiles

/// Getting a plot's data out of a sound file: one streaming pass for the columns, or the
/// few raw samples of a zoomed-in view.
public enum SoundFileReading {
    /// Frames per `SoundFile.read`: 64 Ki frames (512 KiB of stereo floats) keeps the
    /// buffer in cache and the per-call overhead of libsndfile negligible.
    public static let chunkFrames = 1 << 16

    /// Reduces the grid's frames of `file` to columns in one pass, reading `chunkFrames`
    /// at a time. A file that ends early (a truncated recording) leaves the remaining
    /// columns empty.
    public static func columns(of file: SoundFile, grid: ColumnGrid,
                               chunkFrames: Int = chunkFrames) -> WaveColumns {
        var reducer = ColumnReducer(grid: grid, channels: file.channels)
        let chunkFrames = file.framesPerRead(upTo: chunkFrames)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunkFrames * file.channels)
        defer { buffer.deallocate() }
        guard file.seek(toFrame: grid.firstFrame) else { return reducer.columns }
        var frame = grid.firstFrame
        while frame < grid.endFrame {
            let want = Int(Swift.min(Int64(chunkFrames), grid.endFrame - frame))
            let got = file.read(into: buffer, count: want)
            if got <= 0 { break }
            reducer.consume(buffer, frames: got, startingAt: frame)
            frame += Int64(got)
        }
        return reducer.columns
    }

    /// The samples of frames `first ..< end` (clamped to the file), interleaved, and the
    /// frame number of the first one. For zoomed-in views, where the grid is shorter than
    /// the plot is wide, so this is at most a few thousand frames.
    public static func frames(of file: SoundFile, from first: Int64, to end: Int64) -> (start: Int64, samples: [Float]) {
        let lo = Swift.max(0, first)
        let hi = Swift.min(file.frames, end)
        guard hi > lo, file.seek(toFrame: lo) else { return (lo, []) }
        let count = Int(hi - lo)
        var samples = [Float](repeating: 0, count: count * file.channels)
        let got = samples.withUnsafeMutableBufferPointer { file.read(into: $0.baseAddress!, count: count) }
        samples.removeLast((count - Swift.max(0, got)) * file.channels)
        return (lo, samples)
    }
}
