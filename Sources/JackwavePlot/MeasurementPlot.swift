import FoundationEssentials
import Glibc

/// Draws a `MeasurementPicture` in three lanes: the response (dB against log frequency),
/// the harmonics (dBc against log frequency) and the impulse (against milliseconds), with
/// the chrome the other pictures share (`PlotChrome`, `Palette`).
public enum MeasurementPlot {
    /// Writes the picture to `path` (.png or .svg); a file there is replaced only if
    /// `existing` says so.
    public static func draw(_ picture: MeasurementPicture, to path: String, width: Int = 1200, height: Int = 960,
                            existing: PictureFile.Existing = .refuse) throws(PlotError) {
        guard let format = PlotFormat(path: path) else { throw .badInput("\(path): unknown picture type (use .png or .svg)") }
        let layout = PlotLayout(width: width, height: height, lanes: 3)
        try PictureFile.write(path, format: format, layout: layout, existing: existing) {
            draw(picture, width: width, height: height, on: $0)
        }
    }

    /// Room under each lane for its axis labels.
    static let axisRoom = 34.0
    /// Frequencies labelled on the log axes.
    static let frequencyTicks: [Double] = [20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000]
    /// A colour per channel (response, impulse) or per harmonic order (2…5).
    static let colors = [Palette.peak, Palette.bar, Color(hex: 0x1b7f3b), Color(hex: 0x8a4fbf), Color(hex: 0xd9822b)]

    static func draw(_ p: MeasurementPicture, width: Int, height: Int, on ctx: CairoContext) {
        ctx.setColor(Palette.background)
        ctx.paint()
        let layout = PlotLayout(width: width, height: height, lanes: 3)
        PlotChrome.title(ctx, p.title, layout)
        let left = Double(PlotLayout.marginLeft), right = Double(width - PlotLayout.marginRight)
        let top = Double(PlotLayout.marginTop)
        let laneHeight = (Double(height) - top - 3 * axisRoom - 2 * 8) / 3
        let boxes = (0..<3).map { i in Box(x: left, y: top + Double(i) * (laneHeight + axisRoom + 8), width: right - left, height: laneHeight) }
        let xLow = 20.0, xHigh = 20_000.0
        let logX = { (box: Box) in { (hz: Double) in box.x + log(hz / xLow) / log(xHigh / xLow) * box.width } }

        // Response.
        let responseValues = p.responses.flatMap(\.y).filter(\.isFinite)
        let responseRange = range(responseValues, least: 1, step: 1)
        lane(ctx, boxes[0], name: "dB", yRange: responseRange, yStep: step(for: responseRange.upperBound - responseRange.lowerBound),
             xTicks: frequencyTicks.map { (logX(boxes[0])($0), frequencyLabel($0)) })
        for (c, curve) in p.responses.enumerated() {
            plot(ctx, curve, box: boxes[0], x: logX(boxes[0]), yRange: responseRange, color: colors[c % colors.count], dashed: false)
        }
        legend(ctx, boxes[0], p.responses.enumerated().map { ($1.label, colors[$0 % colors.count], false) })

        // Harmonics: colour by order, dashes for channels after the first.
        let harmonicValues = p.harmonics.flatMap { $0.flatMap(\.y) }.filter(\.isFinite)
        let harmonicRange = harmonicValues.isEmpty ? -140.0...0 : (Swift.max(-200, (harmonicValues.min()! / 20).rounded(.down) * 20))...Swift.min(0, Swift.max(-20, (harmonicValues.max()! / 20).rounded(.up) * 20))
        lane(ctx, boxes[1], name: "dBc", yRange: harmonicRange, yStep: 20,
             xTicks: frequencyTicks.map { (logX(boxes[1])($0), frequencyLabel($0)) })
        var harmonicLegend: [(String, Color, Bool)] = []
        for (c, curves) in p.harmonics.enumerated() {
            for (k, curve) in curves.enumerated() {
                plot(ctx, curve, box: boxes[1], x: logX(boxes[1]), yRange: harmonicRange, color: colors[(k + 1) % colors.count], dashed: c > 0)
                harmonicLegend.append((curve.label, colors[(k + 1) % colors.count], c > 0))
            }
        }
        legend(ctx, boxes[1], harmonicLegend)

        // Impulse.
        let times = p.impulses.flatMap(\.x)
        let t0 = times.min() ?? -2, t1 = times.max() ?? 10
        let linearX = { (t: Double) in boxes[2].x + (t - t0) / (t1 - t0) * boxes[2].width }
        let timeTicks = stride(from: (t0 / 2).rounded(.up) * 2, through: t1, by: 2).map { (linearX($0), "\(Int($0)) ms") }
        lane(ctx, boxes[2], name: "IR", yRange: -1.1...1.1, yStep: 0.5, xTicks: timeTicks)
        for (c, curve) in p.impulses.enumerated() {
            plot(ctx, curve, box: boxes[2], x: linearX, yRange: -1.1...1.1, color: colors[c % colors.count], dashed: false)
        }
        legend(ctx, boxes[2], p.impulses.enumerated().map { ($1.label, colors[$0 % colors.count], false) })
    }

    /// A lane's background, grid, labels and name.
    static func lane(_ ctx: CairoContext, _ box: Box, name: String, yRange: ClosedRange<Double>, yStep: Double,
                     xTicks: [(Double, String)]) {
        ctx.setColor(Palette.lane)
        ctx.rectangle(x: box.x, y: box.y, width: box.width, height: box.height)
        ctx.fill()
        ctx.setLineWidth(1)
        ctx.setColor(Palette.grid)
        for (px, _) in xTicks {
            ctx.move(to: px.rounded(.down) + 0.5, box.y)
            ctx.line(to: px.rounded(.down) + 0.5, box.bottom)
        }
        let values = stride(from: (yRange.lowerBound / yStep).rounded(.up) * yStep, through: yRange.upperBound + 1e-9, by: yStep)
        for v in values {
            let py = y(v, box: box, range: yRange).rounded(.down) + 0.5
            ctx.move(to: box.x, py)
            ctx.line(to: box.right, py)
        }
        ctx.stroke()
        ctx.selectFont(bold: false)
        ctx.setFontSize(PlotChrome.labelSize - 1)
        ctx.setColor(Palette.text)
        for v in values {
            let label = yStep < 1 ? String(printf: "%.1f", v) : String(Int(v.rounded()))
            let size = ctx.measure(label)
            ctx.move(to: box.x - 6 - size.width, Swift.min(box.bottom, Swift.max(box.y + size.height, y(v, box: box, range: yRange) + size.height / 2)))
            ctx.showText(label)
        }
        ctx.setFontSize(PlotChrome.labelSize)
        for (px, label) in xTicks {
            let w = ctx.measure(label).width
            ctx.move(to: Swift.max(2, px - w / 2), box.bottom + 18)
            ctx.showText(label)
        }
        ctx.selectFont(bold: true)
        ctx.setFontSize(PlotChrome.labelSize + 1)
        ctx.setColor(Palette.title)
        ctx.move(to: 8, box.y + ctx.measure(name).height + 2)
        ctx.showText(name)
    }

    /// One curve as a polyline, clipped to the lane; gaps where a value is not finite.
    static func plot(_ ctx: CairoContext, _ curve: MeasurementPicture.Curve, box: Box, x: (Double) -> Double,
                     yRange: ClosedRange<Double>, color: Color, dashed: Bool) {
        ctx.save()
        ctx.rectangle(x: box.x, y: box.y, width: box.width, height: box.height)
        ctx.clip()
        ctx.setRoundJoins()
        ctx.setLineWidth(1.5)
        ctx.setColor(color)
        ctx.setDash(on: dashed ? 6 : 0, off: 4)
        var drawing = false
        for (xv, yv) in zip(curve.x, curve.y) {
            guard yv.isFinite, xv.isFinite, xv > 0 || curve.x.contains(where: { $0 < 0 }) else { drawing = false; continue }
            let px = x(xv), py = y(Swift.min(yRange.upperBound, Swift.max(yRange.lowerBound, yv)), box: box, range: yRange)
            if drawing { ctx.line(to: px, py) } else { ctx.move(to: px, py) }
            drawing = true
        }
        ctx.stroke()
        ctx.setDash(on: 0, off: 0)
        ctx.restore()
    }

    /// The legend: one line per curve in the lane's top right corner.
    static func legend(_ ctx: CairoContext, _ box: Box, _ entries: [(String, Color, Bool)]) {
        ctx.selectFont(bold: false)
        ctx.setFontSize(PlotChrome.labelSize - 1)
        let widest = entries.map { ctx.measure($0.0).width }.max() ?? 0
        for (i, (label, color, dashed)) in entries.enumerated() {
            let baseline = box.y + 16 + Double(i) * 15
            let x = box.right - widest - 40
            ctx.setColor(color)
            ctx.setLineWidth(2)
            ctx.setDash(on: dashed ? 6 : 0, off: 4)
            ctx.move(to: x, baseline - 4)
            ctx.line(to: x + 24, baseline - 4)
            ctx.stroke()
            ctx.setDash(on: 0, off: 0)
            ctx.setColor(Palette.text)
            ctx.move(to: x + 30, baseline)
            ctx.showText(label)
        }
    }

    /// The pixel row of `value` in `box`.
    static func y(_ value: Double, box: Box, range: ClosedRange<Double>) -> Double {
        box.bottom - (value - range.lowerBound) / (range.upperBound - range.lowerBound) * box.height
    }

    /// A range holding `values` (at least ±`least`), widened to whole `step`s.
    static func range(_ values: [Double], least: Double, step: Double) -> ClosedRange<Double> {
        let low = Swift.min(-least, ((values.min() ?? 0) / step).rounded(.down) * step)
        let high = Swift.max(least, ((values.max() ?? 0) / step).rounded(.up) * step)
        return low...high
    }

    /// A grid step giving 4 to 10 lines over `span`.
    static func step(for span: Double) -> Double {
        for candidate in [0.5, 1, 2, 5, 10, 20, 50] where span / candidate <= 10 { return candidate }
        return 100
    }

    /// `20`, `500`, `1k`, `20k`.
    static func frequencyLabel(_ hz: Double) -> String { hz >= 1000 ? "\(Int(hz / 1000))k" : "\(Int(hz))" }
}
