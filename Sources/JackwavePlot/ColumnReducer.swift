/// What one channel did within one pixel column: the extremes, the energy, the last sample.
public struct ColumnStats: Sendable, Equatable {
    /// The lowest sample (`+∞` while the column is empty).
    public var min: Float = .infinity
    /// The highest sample (`-∞` while the column is empty).
    public var max: Float = -.infinity
    /// Σ x², in Double: an hour-long column holds millions of samples.
    public var sumSquares: Double = 0
    /// Samples folded in.
    public var count: Int64 = 0
    /// The column's last sample, to join it to the next column without a gap.
    public var last: Float = 0

    public init() {}

    /// No sample fell in this column (zoomed in past the samples).
    public var isEmpty: Bool { count == 0 }

    /// Root mean square, 0 when empty.
    public var rms: Float { count == 0 ? 0 : Float((sumSquares / Double(count)).squareRoot()) }
}

/// The reduction of a recording to pixel columns: `ColumnStats` per channel and column.
public struct WaveColumns: Sendable {
    /// Which frames, which columns.
    public let grid: ColumnGrid
    /// Channels in the recording.
    public let channels: Int
    /// Channel-major: channel `ch`, column `c` is at `ch * grid.columns + c`.
    public fileprivate(set) var stats: [ColumnStats]

    /// The statistics of one channel in one column.
    public subscript(channel: Int, column: Int) -> ColumnStats {
        stats[channel * grid.columns + column]
    }
}

/// Folds interleaved frames, in chunks of any size and in order, into per-column statistics:
/// the streaming half of `jackwave plot`, whose memory is one `ColumnStats` per channel and
/// column however long the recording. The per-sample work is `SegmentKernel`'s.
public struct ColumnReducer {
    private var result: WaveColumns

    public init(grid: ColumnGrid, channels: Int) {
        precondition(channels > 0)
        result = WaveColumns(grid: grid, channels: channels,
                             stats: Array(repeating: ColumnStats(), count: channels * grid.columns))
    }

    /// Folds in `frames` interleaved frames whose first is frame number `start` of the file.
    /// Frames outside the grid's range are ignored, so a chunk may overhang either end.
    public mutating func consume(_ samples: UnsafePointer<Float>, frames: Int, startingAt start: Int64) {
        let grid = result.grid
        let channels = result.channels
        let lo = Swift.max(start, grid.firstFrame)
        let hi = Swift.min(start + Int64(frames), grid.endFrame)
        guard lo < hi else { return }
        var frame = lo
        var column = grid.column(ofFrame: lo)
        result.stats.withUnsafeMutableBufferPointer { stats in
            while frame < hi {
                let columnEnd = Swift.min(hi, grid.firstFrame(ofColumn: column + 1))
                if columnEnd > frame {
                    let p = samples + Int(frame - start) * channels
                    SegmentKernel.fold(p, frames: Int(columnEnd - frame), channels: channels,
                                       into: stats.baseAddress! + column, channelStride: grid.columns)
                    frame = columnEnd
                }
                column += 1
            }
        }
    }

    /// The statistics so far.
    public var columns: WaveColumns { result }
}
