/// Draws loudness curves in a lane of their own, under a waveform or a level stream's bars:
/// the momentary loudness thin and light, the short-term loudness bold, and the integrated
/// loudness as a dashed line, on a LUFS scale from `floor` (bottom) to 0 (top).
public enum LoudnessLaneRenderer {
    /// The bottom of the scale: −60 LUFS, below any programme's quiet passages (the
    /// absolute gate is −70); quieter points sit on the bottom edge.
    public static let floor = -60.0
    /// Grid lines and labels every 10 LU.
    static let gridStep = 10.0
    /// Curve colours: short-term in a deep green, momentary a light green behind it, the
    /// integrated line in the title's near-black.
    static let shortTermColor = Color(hex: 0x1b7f3b)
    static let momentaryColor = Color(hex: 0x9fd8a8)
    static let integratedColor = Color(hex: 0x16202a)

    /// The pixel row of `lufs` in `box` (−∞ and anything under the floor: the bottom edge).
    public static func y(_ lufs: Double, in box: Box) -> Double {
        let clamped = lufs.isFinite ? Swift.min(0, Swift.max(floor, lufs)) : floor
        return box.bottom - (clamped - floor) / -floor * box.height
    }

    /// The lane: background, grid and labels, then the curves. `x` maps seconds to pixels.
    public static func draw(_ curves: LoudnessCurves, box: Box, ticks: TimeTicks, x: (Double) -> Double, on ctx: CairoContext) {
        PlotChrome.laneBackground(ctx, box, ticks: ticks, x: x)
        let levels = stride(from: floor + gridStep, through: -gridStep, by: gridStep)
        for lufs in levels {
            let py = y(lufs, in: box).rounded(.down) + 0.5
            ctx.move(to: box.x, py)
            ctx.line(to: box.right, py)
        }
        ctx.stroke()
        labels(ctx, box: box, levels: Array(levels))

        ctx.save()
        ctx.rectangle(x: box.x, y: box.y, width: box.width, height: box.height)
        ctx.clip()
        ctx.setRoundJoins()
        curve(ctx, curves.times, curves.momentary, width: 1, color: momentaryColor, box: box, x: x)
        curve(ctx, curves.times, curves.shortTerm, width: 2, color: shortTermColor, box: box, x: x)
        if let integrated = curves.integrated {
            ctx.setDash(on: 6, off: 4)
            ctx.setLineWidth(1)
            ctx.setColor(integratedColor)
            let py = y(integrated, in: box).rounded(.down) + 0.5
            ctx.move(to: box.x, py)
            ctx.line(to: box.right, py)
            ctx.stroke()
            ctx.setDash(on: 0, off: 0)
        }
        ctx.restore()
    }

    /// One curve as a polyline through its points.
    static func curve(_ ctx: CairoContext, _ times: [Double], _ values: [Double], width: Double, color: Color,
                      box: Box, x: (Double) -> Double) {
        guard !times.isEmpty else { return }
        ctx.setLineWidth(width)
        ctx.setColor(color)
        ctx.move(to: x(times[0]), y(values[0], in: box))
        for i in times.indices.dropFirst() { ctx.line(to: x(times[i]), y(values[i], in: box)) }
        ctx.stroke()
    }

    /// The LUFS labels left of the lane, and its name.
    static func labels(_ ctx: CairoContext, box: Box, levels: [Double]) {
        ctx.selectFont(bold: false)
        ctx.setFontSize(PlotChrome.labelSize - 1)
        ctx.setColor(Palette.text)
        for lufs in levels where box.height >= 60 || lufs == -30 {
            let label = String(Int(lufs))
            let size = ctx.measure(label)
            ctx.move(to: box.x - 6 - size.width, y(lufs, in: box) + size.height / 2)
            ctx.showText(label)
        }
        ctx.selectFont(bold: true)
        ctx.setFontSize(PlotChrome.labelSize + 1)
        ctx.setColor(Palette.title)
        ctx.move(to: 8, box.y + ctx.measure("LUFS").height + 2)
        ctx.showText("LUFS")
    }
}
