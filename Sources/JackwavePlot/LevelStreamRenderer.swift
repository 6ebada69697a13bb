/// What a level-stream picture shows.
public struct LevelPicture: Sendable {
    public let title: String
    public let stream: LevelStream
    /// Seconds shown.
    public let start: Double
    public let end: Double
    public let scale: AmplitudeScale

    public init(title: String, stream: LevelStream, start: Double, end: Double, scale: AmplitudeScale) {
        self.title = title
        self.stream = stream
        self.start = start
        self.end = end
        self.scale = scale
    }
}

/// Draws a level stream as a voice recorder does: one bar per row, symmetric about a
/// centre line, rounded ends, time underneath; on any cairo surface.
public enum LevelStreamRenderer {
    /// Bars are never closer than this (pixels from one bar's centre to the next):
    /// with more rows than that, neighbouring rows share a bar, which shows their maximum.
    public static let minimumPitch = 3.0

    /// A bar: where its centre is, how wide it is, and the level it shows.
    public struct Bar: Sendable, Equatable {
        public let x: Double
        public let width: Double
        public let peak: Float
    }

    public static func draw(_ picture: LevelPicture, layout: PlotLayout, on ctx: CairoContext) {
        let (box, x, ticks) = PlotChrome.begin(ctx, layout, title: picture.title, from: picture.start, to: picture.end)
        let names = picture.stream.channelNames
        PlotChrome.lane(ctx, box, name: names.count == 1 ? names[0] : "max", scale: picture.scale,
                        ticks: ticks, x: x)
        PlotChrome.zeroLine(ctx, box)

        ctx.save()
        ctx.rectangle(x: box.x, y: box.y, width: box.width, height: box.height)
        ctx.clip()
        ctx.setColor(Palette.bar)
        ctx.setRoundCaps(true)
        // Bars of one width share one path, so the stroke (and an SVG element) is per width.
        let allBars = bars(picture, box: box)
        var i = 0
        while i < allBars.count {
            let width = allBars[i].width
            ctx.setLineWidth(width)
            while i < allBars.count && allBars[i].width == width {
                let bar = allBars[i]
                // Round caps add half the width at each end; a silent row stays a dot.
                let half = Swift.max(0, picture.scale.position(bar.peak) * box.height / 2 - width / 2)
                ctx.move(to: bar.x, box.midY - half)
                ctx.line(to: bar.x, box.midY + half)
                i += 1
            }
            ctx.stroke()
        }
        ctx.restore()
        if let curves = picture.stream.loudness, layout.lanes > 1 {
            LoudnessLaneRenderer.draw(curves, box: layout.lane(1), ticks: ticks, x: x, on: ctx)
        }
        PlotChrome.timeAxis(ctx, layout, ticks: ticks, x: x)
    }

    /// The bars for the shown range. Few rows: one bar per row, centred on its interval,
    /// 60 % of it wide (at most 8 px). Many rows: a bar every `minimumPitch` pixels, each the
    /// maximum of the rows that start under it, so no peak is dropped.
    public static func bars(_ picture: LevelPicture, box: Box) -> [Bar] {
        let stream = picture.stream
        let span = picture.end - picture.start
        let pixelsPerSecond = box.width / span
        let shown = stream.times.indices.filter {
            stream.times[$0] < picture.end && stream.times[$0] + stream.interval(ofRow: $0) > picture.start
        }
        guard !shown.isEmpty else { return [] }
        let averagePitch = box.width / Double(shown.count)
        if averagePitch >= minimumPitch * 2 {
            return shown.map { i in
                let d = stream.interval(ofRow: i)
                let x = box.x + (stream.times[i] + d / 2 - picture.start) * pixelsPerSecond
                let width = Swift.min(8, Swift.max(1.5, d * pixelsPerSecond * 0.6))
                return Bar(x: x, width: width, peak: stream.peaks[i])
            }
        }
        let count = Int(box.width / minimumPitch)
        var loudest = [Float](repeating: -1, count: count)
        for i in shown {
            let t = Swift.max(picture.start, stream.times[i])
            // The row's place across the span, 0 to 1, then in bars: a span of a few smallest
            // doubles (a hostile stream's) has no finite pixels per second, and NaN or ∞
            // compares false here, landing in the last bar rather than trapping.
            let place = (t - picture.start) / span * (box.width / minimumPitch)
            let k = place < Double(count - 1) ? Int(place) : count - 1
            loudest[k] = Swift.max(loudest[k], stream.peaks[i])
        }
        return loudest.indices.compactMap { k in
            loudest[k] < 0 ? nil
                : Bar(x: box.x + (Double(k) + 0.5) * minimumPitch, width: minimumPitch - 1, peak: loudest[k])
        }
    }
}
