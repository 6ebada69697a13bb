/// What a waveform picture shows, once the recording has been read.
public struct Waveform: Sendable {
    /// The data of the shown range.
    public enum Data: Sendable {
        /// One `ColumnStats` per channel and pixel column (a column covers ≥ 1 frame).
        case columns(WaveColumns)
        /// The raw interleaved frames from frame `start` on (zoomed in past the samples),
        /// including one frame either side of the range where the file has them, so the
        /// line runs to the lane's edges.
        case frames(start: Int64, samples: [Float])
    }

    public let title: String
    public let channelNames: [String]
    public let sampleRate: Int
    public let grid: ColumnGrid
    public let scale: AmplitudeScale
    public let data: Data
    /// The file's loudness curves, drawn in a last lane (`plot FILE --loudness`).
    public var loudness: LoudnessCurves?
    /// The notes of the MIDI file beside the recording, drawn in the last lane (`plot FILE --midi`).
    public var midi: MidiNotes?

    public init(title: String, channelNames: [String], sampleRate: Int, grid: ColumnGrid,
                scale: AmplitudeScale, data: Data, loudness: LoudnessCurves? = nil, midi: MidiNotes? = nil) {
        self.loudness = loudness
        self.midi = midi
        self.title = title
        self.channelNames = channelNames
        self.sampleRate = sampleRate
        self.grid = grid
        self.scale = scale
        self.data = data
    }

    /// "L", "R" for stereo; "ch 1", "ch 2", … otherwise.
    public static func channelNames(_ channels: Int) -> [String] {
        channels == 2 ? ["L", "R"] : (1...Swift.max(1, channels)).map { "ch \($0)" }
    }
}

/// Draws a `Waveform` on any cairo surface: the one drawing routine behind PNG and SVG.
public enum WaveformRenderer {
    public static func draw(_ wave: Waveform, layout: PlotLayout, on ctx: CairoContext) {
        let grid = wave.grid
        let rate = Double(wave.sampleRate)
        let left = Double(PlotLayout.marginLeft)
        let start = Double(grid.firstFrame) / rate
        let end = Double(grid.endFrame) / rate
        let x = { (t: Double) in left + grid.x(ofFrame: t * rate) }

        PlotChrome.background(ctx, layout)
        PlotChrome.title(ctx, wave.title, layout)
        let ticks = PlotChrome.timeTicks(ctx, from: start, to: end, pixels: Double(layout.columns))
        // The lanes' first ones are the channels; a loudness lane, then a piano roll, may follow (`Plot`).
        for ch in 0..<wave.channelNames.count {
            let box = layout.lane(ch)
            PlotChrome.lane(ctx, box, name: wave.channelNames[ch], scale: wave.scale, ticks: ticks, x: x)
            switch wave.data {
            case let .columns(columns):
                drawColumns(ctx, columns, channel: ch, box: box, scale: wave.scale)
            case let .frames(first, samples):
                drawLine(ctx, samples, first: first, channel: ch, channels: wave.channelNames.count,
                         grid: grid, box: box, scale: wave.scale)
            }
            PlotChrome.zeroLine(ctx, box)
        }
        if let curves = wave.loudness {
            LoudnessLaneRenderer.draw(curves, box: layout.lane(wave.channelNames.count), ticks: ticks, x: x, on: ctx)
        }
        if let notes = wave.midi {
            PianoRollRenderer.draw(notes, box: layout.lane(layout.lanes - 1), start: start, end: end, ticks: ticks, x: x, on: ctx)
        }
        PlotChrome.timeAxis(ctx, layout, ticks: ticks, x: x)
    }

    /// Each column a one-pixel bar from its minimum to its maximum, widened to reach the
    /// previous column's last sample so that steep slopes stay connected; then the RMS
    /// band, lighter, inside it. One path per colour: two fills per lane, which keeps an
    /// SVG small.
    static func drawColumns(_ ctx: CairoContext, _ columns: WaveColumns, channel: Int, box: Box,
                            scale: AmplitudeScale) {
        let n = columns.grid.columns
        var previousLast: Float? = nil
        for pass in 0..<2 {
            previousLast = nil
            for c in 0..<n {
                let s = columns[channel, c]
                if s.isEmpty { previousLast = nil; continue }
                var lo = s.min, hi = s.max
                if let p = previousLast { lo = Swift.min(lo, p); hi = Swift.max(hi, p) }
                previousLast = s.last
                let px = box.x + Double(c)
                var top = PlotChrome.y(scale.position(hi), in: box)
                var bottom = PlotChrome.y(scale.position(lo), in: box)
                if pass == 1 {
                    let r = s.rms
                    top = Swift.max(top, PlotChrome.y(scale.position(r), in: box))
                    bottom = Swift.min(bottom, PlotChrome.y(scale.position(-r), in: box))
                    if bottom - top < 1 { continue }
                } else if bottom - top < 1 {
                    // A flat column (digital silence, DC) still shows as a one-pixel line.
                    let mid = (top + bottom) / 2
                    top = mid - 0.5
                    bottom = mid + 0.5
                }
                ctx.rectangle(x: px, y: top, width: 1, height: bottom - top)
            }
            ctx.setColor(pass == 0 ? Palette.peak : Palette.rms)
            ctx.fill()
        }
    }

    /// Zoomed in past the samples: a polyline through them, with a dot on each sample
    /// once they are far enough apart to tell apart.
    static func drawLine(_ ctx: CairoContext, _ samples: [Float], first: Int64, channel: Int, channels: Int,
                         grid: ColumnGrid, box: Box, scale: AmplitudeScale) {
        let count = samples.count / channels
        guard count > 0 else { return }
        ctx.save()
        ctx.rectangle(x: box.x, y: box.y, width: box.width, height: box.height)
        ctx.clip()
        let points = (0..<count).map { i in
            (box.x + grid.x(ofFrame: Double(first + Int64(i))),
             PlotChrome.y(scale.position(samples[i * channels + channel]), in: box))
        }
        ctx.setRoundJoins()
        ctx.setLineWidth(1.5)
        ctx.setColor(Palette.peak)
        ctx.move(to: points[0].0, points[0].1)
        for p in points.dropFirst() { ctx.line(to: p.0, p.1) }
        if count == 1 { ctx.line(to: points[0].0 + 1, points[0].1) }
        ctx.stroke()
        if 1 / grid.framesPerColumn >= 6 {
            for p in points {
                ctx.newSubPath()
                ctx.circle(x: p.0, y: p.1, radius: 2.5)
            }
            ctx.fill()
        }
        ctx.restore()
    }
}
