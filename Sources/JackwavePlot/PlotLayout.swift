/// A rectangle in pixels, y growing downwards (cairo's user space).
public struct Box: Sendable, Equatable {
    public var x, y, width, height: Double
    public var right: Double { x + width }
    public var bottom: Double { y + height }
    /// The vertical centre, where a lane's zero line is.
    public var midY: Double { y + height / 2 }
}

/// Where everything goes on the picture: a title line on top, lanes stacked one per
/// channel, channel names and amplitude labels on the left, the time axis underneath.
///
/// The lanes' width in pixels is the number of columns the recording is reduced to, and
/// the lanes start on a whole pixel, so every column is exactly one pixel wide and crisp.
public struct PlotLayout: Sendable, Equatable {
    /// Whole picture.
    public let width: Int
    public let height: Int
    /// Lanes stacked top to bottom.
    public let lanes: Int

    /// Room for the channel name and the amplitude labels.
    public static let marginLeft = 78
    public static let marginRight = 18
    /// Room for the title line.
    public static let marginTop = 38
    /// Room for the time labels.
    public static let marginBottom = 34
    /// Space between two lanes.
    public static let laneGap = 10
    /// Below this a lane cannot show a waveform and its labels.
    public static let minimumLaneHeight = 24

    /// Default width: fits a 1366-pixel laptop screen with a window frame around it.
    public static let defaultWidth = 1200

    /// Default height: lanes of 280 px for one or two channels, shrinking so that up to
    /// four lanes fit in 720 px (a laptop screen), then 100 px each.
    public static func defaultHeight(lanes: Int) -> Int {
        let lane = Swift.min(280, Swift.max(100, 640 / Swift.max(1, lanes)))
        return marginTop + marginBottom + lanes * lane + (lanes - 1) * laneGap
    }

    /// The smallest picture that still has a column and a readable lane.
    public static func minimumHeight(lanes: Int) -> Int {
        marginTop + marginBottom + lanes * minimumLaneHeight + (lanes - 1) * laneGap
    }

    /// The most lanes the tallest picture (`PlotOptions.heightRange`) holds at their smallest.
    public static var maximumLanes: Int {
        (PlotOptions.heightRange.upperBound - marginTop - marginBottom + laneGap) / (minimumLaneHeight + laneGap)
    }

    public init(width: Int, height: Int, lanes: Int) {
        self.width = width
        self.height = height
        self.lanes = lanes
    }

    /// Pixel columns across a lane: one per column of the reduction.
    public var columns: Int { width - Self.marginLeft - Self.marginRight }

    /// The height of each lane in whole pixels.
    public var laneHeight: Int {
        (height - Self.marginTop - Self.marginBottom - (lanes - 1) * Self.laneGap) / lanes
    }

    /// The rectangle of lane `i` (0 on top).
    public func lane(_ i: Int) -> Box {
        Box(x: Double(Self.marginLeft),
            y: Double(Self.marginTop + i * (laneHeight + Self.laneGap)),
            width: Double(columns), height: Double(laneHeight))
    }

    /// The baseline of the time labels, under the last lane.
    public var timeLabelBaseline: Double { lane(lanes - 1).bottom + 20 }
}
